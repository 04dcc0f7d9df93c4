// The CLI's malloc settings for batch work.
//
// glibc serves allocations from 128 KiB up (raised as they are freed, to at
// most 32 MiB) with mmap, and returns free memory at the top of its heaps
// above 128 KiB (likewise raised) to the kernel. A run allocates and frees
// its 4 MiB input chunks, decoded columns and output pieces batch after batch,
// so each batch paid fresh zeroed pages and the TLB shoot-downs of munmap:
// 28% of the merging thread's time on the 1M-row benchmark CSV.
// Fixed thresholds (mmap from 32 MiB, trim above 128 MiB of free top) keep
// those pages in the heap: `griffin validate` on that file took 16% less wall
// time, peak RSS 3% more. Large tables (unique sets, the spill's buffers)
// still come from mmap and go back to the kernel when freed.
//
// Only the CLI sets them: the Python module and other hosts keep their
// process's malloc as it is.
#pragma once

namespace griffin {

// True when the user set none of glibc's malloc thresholds: no "malloc" in
// GLIBC_TUNABLES, no MALLOC_MMAP_THRESHOLD_ or MALLOC_TRIM_THRESHOLD_. The
// arguments are those variables' values, null when unset.
bool MallocThresholdsAreOurs(const char* glibc_tunables, const char* mmap_threshold_env,
                             const char* trim_threshold_env);

// Sets the thresholds above unless the environment set any (see
// MallocThresholdsAreOurs). Returns whether it set them.
bool TuneMallocForBatches();

}  // namespace griffin
