/* Stop signals: the first SIGINT or SIGTERM is remembered for the run to act
 * on at its next variant boundary (exit 130 or 143); a second one ends the
 * process at once. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stop.h"
#include "harness/testing/test_util.h"

/* In a child: returns its exit status. */
static int child_status(int first, int second)
{
    pid_t child = fork();
    if (child == 0) {
        ladder_stop_on_signals();
        if (ladder_stop_signal() != 0) _exit(90);
        raise(first);
        if (ladder_stop_signal() != first) _exit(91);
        if (second) raise(second); /* the handler is gone: this one kills */
        _exit(ladder_stop_exit_code());
    }
    int status;
    waitpid(child, &status, 0);
    return status;
}

int main(void)
{
    int status = child_status(SIGTERM, 0);
    EXPECTF(WIFEXITED(status) && WEXITSTATUS(status) == 143, "SIGTERM: status %d", status);
    status = child_status(SIGINT, 0);
    EXPECTF(WIFEXITED(status) && WEXITSTATUS(status) == 130, "SIGINT: status %d", status);
    status = child_status(SIGINT, SIGINT);
    EXPECTF(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT, "second SIGINT: status %d", status);
    status = child_status(SIGTERM, SIGINT);
    EXPECTF(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT, "SIGINT after SIGTERM: status %d", status);

    EXPECT(ladder_stop_signal() == 0 && ladder_stop_signal_name() == NULL);
    return test_result("stop_test");
}
