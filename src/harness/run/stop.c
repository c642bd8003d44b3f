#include "stop.h"

#include <signal.h>
#include <stddef.h>

static volatile sig_atomic_t stop_signal;

/* A second signal of either kind ends a run that is stuck inside a long
 * variant: the first one puts the defaults back (sigaction is safe here). */
static void request_stop(int signo)
{
    stop_signal = signo;
    struct sigaction fallback = {0};
    fallback.sa_handler = SIG_DFL;
    sigaction(SIGINT, &fallback, NULL);
    sigaction(SIGTERM, &fallback, NULL);
}

void ladder_stop_on_signals(void)
{
    struct sigaction action = {0};
    action.sa_handler = request_stop;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

int ladder_stop_signal(void)
{
    return stop_signal;
}

const char *ladder_stop_signal_name(void)
{
    switch (stop_signal) {
    case 0: return NULL;
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "signal";
    }
}

int ladder_stop_exit_code(void)
{
    return 128 + stop_signal;
}
