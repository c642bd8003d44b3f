/* Energy beside every rung, from the board's total energy counter (NVML,
 * millijoules since the driver loaded; Volta and newer).
 *
 * The counter does not count continuously: on an H100 it moves once every
 * 100 ms, by that period's energy, and one reading takes about 3.4 ms. A
 * window read at two arbitrary moments would be wrong by up to a period at
 * each end, so a rung's window runs from one update of the counter to the
 * next while the rung alone runs back to back (no L2 flush between): then
 * the difference is exactly the energy of that stretch of the rung. A
 * thread reads the counter back to back meanwhile, so the launches never
 * wait for NVML; the length of the window is the number of update periods
 * between the two updates times the period measured at the start of the run
 * (the updates are periodic; a reading's own 3.4 ms would blur a host
 * clock's view of them).
 *
 * Where the counter is missing, stands still, goes backwards (or wraps) or
 * moves by too little to resolve the figure, every field stays empty with
 * the reason, said once per run: never a guessed number. */
#ifndef LADDER_ENERGY_H
#define LADDER_ENERGY_H

#include <stddef.h>

#include "device.h"
#include "timing.h"

/* Where the energy comes from: NVML in a run, a fake in the tests. */
typedef struct ladder_energy_counter {
    /* 0 with the board's energy in millijoules, or nonzero when it could not be read. */
    int (*read_mj)(void *context, unsigned long long *mj);
    void *context;
} ladder_energy_counter;

/* NVML's counter of the GPU with this PCI bus id. Returns 0, or -1 with the
 * reason in why. */
int ladder_energy_nvml_counter(const char *pci_bus_id, ladder_energy_counter *counter, char *why, size_t why_len);

/* The board's enforced power limit in watts; NAN where NVML cannot say. */
double ladder_board_power_limit_w(const char *pci_bus_id);

/* One reading of the counter: the host clock (ladder_now_seconds) before
 * and after the call, and the value. */
typedef struct ladder_energy_reading {
    double start_s, end_s;
    unsigned long long mj;
    int ok; /* the call succeeded */
} ladder_energy_reading;

/* A thread that reads the counter back to back from start to stop. */
typedef struct ladder_energy_poller ladder_energy_poller;
ladder_energy_poller *ladder_energy_poller_start(const ladder_energy_counter *counter);
/* The readings so far, up to max, oldest first; returns how many. */
size_t ladder_energy_poller_readings(ladder_energy_poller *poller, ladder_energy_reading *out, size_t max);
void ladder_energy_poller_stop(ladder_energy_poller *poller);

/* ---- what the readings say (no GPU, no clock: the tests feed them) ---- */

/* A counter that moves by fewer millijoules than this over a window is too
 * coarse to resolve it to 1 %. */
#define LADDER_ENERGY_MIN_MJ 100ull
/* Updates further apart than this make a rung's window too long to be worth it. */
#define LADDER_ENERGY_MAX_PERIOD_S 0.5

typedef enum ladder_energy_state {
    LADDER_ENERGY_PENDING, /* the second update has not come yet */
    LADDER_ENERGY_DONE,
    LADDER_ENERGY_FAILED,  /* reason says why */
} ladder_energy_state;

/* The stretch from one update of the counter to a later one. */
typedef struct ladder_energy_span {
    ladder_energy_state state;
    double joules, seconds;
    int periods;        /* update periods spanned; 0 where the period was not known */
    const char *reason; /* FAILED: why, one phrase, the same text every time */
} ladder_energy_span;

/* From the readings whose call began at or after after_s: the first update
 * of the counter and the next one (updates_wanted = 2), or the first and the
 * last of at least updates_wanted. period_s (0: unknown) turns the host
 * clock's view of the two updates into a whole number of periods. FAILED
 * when a reading failed, the counter went backwards, it stood still for
 * stall_s after after_s, or it moved by less than LADDER_ENERGY_MIN_MJ. */
ladder_energy_span ladder_energy_span_of(const ladder_energy_reading *readings, size_t count, double after_s,
                                         int updates_wanted, double period_s, double stall_s);

/* The counter's behaviour at idle, from readings over a stretch with the GPU idle. */
typedef struct ladder_energy_calibration {
    int usable;
    double period_s;    /* between updates */
    double idle_w;      /* board power with the GPU idle */
    const char *reason; /* !usable: why */
} ladder_energy_calibration;

ladder_energy_calibration ladder_energy_calibrate_readings(const ladder_energy_reading *readings, size_t count);

/* A rung's figures from the power over its window and its time per run back
 * to back: joules per run, GFLOP/J, GB/J (NAN where there are no flops or
 * no bytes). */
typedef struct ladder_energy {
    double joules_per_run, watts, ms_per_run;
    double gflop_per_j, gb_per_j;
    const char *reason; /* NULL when measured */
} ladder_energy;

ladder_energy ladder_energy_figures(double watts, double seconds_per_run, double flops, double bytes);
/* Every figure NAN, with the reason. */
ladder_energy ladder_energy_missing(const char *reason);

/* ---- the run's session ---- */

/* Open the counter of `device` (enabled) or not (--no-energy), measure its
 * update period and the idle power into device (power_limit_w,
 * idle_power_w, energy_period_ms, energy_note), with `counter` in place of
 * NVML's when not NULL. The GPU must be idle. */
void ladder_energy_open(ladder_device *device, int enabled, const ladder_energy_counter *counter);
void ladder_energy_close(void);

/* The board's energy over `launch` run back to back, one update of the
 * counter to the next; ms_per_run, the timed median, sizes the batches.
 * flops and bytes are one run's work. When the session has no counter, the
 * reason of its note. A failure's reason is printed once per run. */
ladder_energy ladder_energy_measure(ladder_launch launch, void *context, double ms_per_run, double flops,
                                    double bytes);

/* A reason said on stderr once per run (the first time it comes). */
void ladder_energy_say_once(const char *reason);

#endif
