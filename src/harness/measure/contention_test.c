/* Telling this run's process from the others that NVML lists on the GPU. */
#include <string.h>

#include "contention.h"
#include "harness/testing/test_util.h"

int main(void)
{
    ladder_gpu_process others[4];
    int ambiguous;

    /* This process alone: no one else. */
    unsigned alone[] = {100};
    unsigned long long alone_memory[] = {1 << 20};
    EXPECT(ladder_other_processes(alone, alone_memory, 1, 100, others, 4, &ambiguous) == 0 && !ambiguous);
    EXPECT(ladder_other_processes(alone, alone_memory, 0, 100, others, 4, &ambiguous) == 0 && !ambiguous);

    /* Two others; one listed twice (compute and graphics) counts once. */
    unsigned pids[] = {7, 100, 8, 7};
    unsigned long long memory[] = {10, 20, ~0ull, 10};
    int n = ladder_other_processes(pids, memory, 4, 100, others, 4, &ambiguous);
    EXPECT(n == 2 && !ambiguous);
    EXPECT(others[0].pid == 7 && others[0].used_memory_bytes == 10);
    EXPECT(others[1].pid == 8 && others[1].used_memory_bytes == ~0ull);

    /* More than fit: the list is capped, not overrun. */
    EXPECT(ladder_other_processes(pids, memory, 4, 100, others, 1, &ambiguous) == 1 && others[0].pid == 7);

    /* Pids from another namespace (a container): this run is one of them. */
    unsigned foreign[] = {5001, 5002};
    unsigned long long foreign_memory[] = {1, 2};
    EXPECT(ladder_other_processes(foreign, foreign_memory, 1, 100, others, 4, &ambiguous) == 0 && ambiguous);
    EXPECT(ladder_other_processes(foreign, foreign_memory, 2, 100, others, 4, &ambiguous) == 1 && ambiguous);

    /* A device NVML does not know (or no NVML at all): the run says that it
     * could not check, and a poll finds no one. */
    EXPECT(ladder_contention_open("0000:ff:1f.7") != 0);
    const ladder_contention *seen = ladder_contention_seen();
    EXPECT(!seen->checked && strstr(seen->note, "could not be checked") != NULL);
    EXPECT(ladder_contention_poll() == 0 && seen->process_count == 0);
    return test_result("contention_test");
}
