#pragma once
// tt-metal's noc/noc_parameters.h (Blackhole's): the NoC's sizes and alignments kernels read. The
// emulated chip transfers whatever a call names, so these are the limits a kernel sizes its own
// transfers and buffers by, with Blackhole's values. The NoC's command and status registers
// (NOC_CMD_*, NOC_CTRL, NIU_MST_* counters, the register offsets) are not declared: a kernel that
// programs the NoC through its registers does not compile here, rather than writing registers the
// emulator does not have.
#include "ditmk/noc.h"

// One NoC flit is 512 bits; a burst (one packet) at most 256 flits: NOC_MAX_BURST_SIZE, 16 KiB
// (ditmk/noc.h).
#define NOC_WORD_BYTES 64
#define NOC_MAX_BURST_WORDS 256

// Transaction ids a kernel may give the tracked read and write calls, and how many it may have
// outstanding per id.
#define NOC_MAX_TRANSACTION_ID 0xF
#define NOC_MAX_TRANSACTION_ID_COUNT 255

// The alignment each endpoint needs of a transfer's addresses. L1_ALIGNMENT and DRAM_ALIGNMENT,
// the larger of each pair, come from ditmk/noc.h.
#define NOC_L1_READ_ALIGNMENT_BYTES 16
#define NOC_L1_WRITE_ALIGNMENT_BYTES 16
#define NOC_PCIE_READ_ALIGNMENT_BYTES 64
#define NOC_PCIE_WRITE_ALIGNMENT_BYTES 16
#define NOC_DRAM_READ_ALIGNMENT_BYTES 64
#define NOC_DRAM_WRITE_ALIGNMENT_BYTES 16
#define NOC_REG_ALIGNMENT_BYTES 4
#ifndef PCIE_ALIGNMENT
#define PCIE_ALIGNMENT 64
#endif
