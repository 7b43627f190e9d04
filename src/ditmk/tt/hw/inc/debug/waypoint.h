#pragma once
// WAYPOINT("name"): tt-metal's watcher marks; the emulator names a stuck processor's wait itself.
#define WAYPOINT(x) \
  do {              \
  } while (0)
