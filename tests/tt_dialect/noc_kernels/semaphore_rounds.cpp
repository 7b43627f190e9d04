// Semaphore between a hub (core (0,0)) and leaves ((1,0) and (2,0)), semaphore ids 0 and 1:
//   each leaf: up(noc, hub) on sem 0;        hub: wait(2), down(2) (back to 0)
//   hub: inc_multicast of 5 to the leaves;   each leaf: wait_min(5), up(1) locally (6)
//   hub: relay 7 to the leaves' sem 1 by set_multicast; each leaf: wait(7), relay_unicast its sem 0 (6)
//   to the hub's sem 1;                      hub: wait(6) on sem 1
// Runtime args: 1 on the hub, 0 on a leaf. A wrong semantic deadlocks or fails an ASSERT.
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/noc_semaphore.h"

void kernel_main() {
  const bool hub = get_arg_val<uint32_t>(0) != 0;
  Noc noc;
  Semaphore sem(0);
  Semaphore relay(1);
  if (hub) {
    sem.wait(2);
    sem.down(2);
    ASSERT(sem.value() == 0);
    sem.inc_multicast(noc, 1, 0, 2, 0, 5, 2);
    noc.async_atomic_barrier();
    relay.set(7);
    relay.set_multicast(noc, 1, 0, 2, 0, 2);
    noc.async_write_barrier();
    relay.wait(6);
  } else {
    sem.up(noc, 0, 0, 1);
    noc.async_atomic_barrier();
    sem.wait_min(5);
    sem.up(1);
    ASSERT(sem.value() == 6);
    relay.wait(7);
    sem.relay_unicast(noc, relay, 0, 0);
    noc.async_write_barrier();
  }
}
