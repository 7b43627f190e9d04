# Included by ctest after the discovered tests: the ones that take more than ~20 s in Release get
# the `slow` label (skipped under the sanitizers).
set_tests_properties(KernelBlocks.N17CrossTextSelfCrossImage KernelSteps4.N17Bf16 KernelSteps4.N17Bfp8
                     KernelSteps4.OnehubN17Bf16 KernelSteps4.OnehubN17Bfp8
                     TtMetalExport.RunsFromItsOwnDescriptorWithTheEmulatedLaunchsBits
                     PROPERTIES LABELS "tt_kernel;slow")
