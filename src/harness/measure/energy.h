/* Energy beside every rung, from the board's total energy counter (NVML,
 * millijoules since the driver loaded; Volta and newer).
 *
 * The counter does not count continuously: on an H100 it moves once every
 * 100 ms, by that period's energy, and one reading takes about 3.4 ms. A
 * window read at two arbitrary moments would be wrong by up to a period at
 * each end; a window from one update to the next holds exactly the energy
 * of that period. So after a ladder has been timed, its GPU rungs run back
 * to back (no L2 flush between launches), one after another, each for one
 * update period (two or more for launches over 5 ms), the switch from one
 * rung to the next placed on an update of the counter. A thread reads the
 * counter meanwhile; the updates, periodic, are fitted with a line, which
 * places them far better than a 3.4 ms reading does; each period's energy
 * goes to the rung that ran it, less the few percent that a neighbouring
 * rung ran at its edges, at that rung's own power. One rung alone would
 * wait half a period on average for the first update before its own; in a
 * chain only the first rung waits.
 *
 * Where the counter is missing, stands still, goes backwards (or wraps) or
 * moves by too little to resolve the figure, every field stays empty with
 * the reason, said once per run: never a guessed number. */
#ifndef LADDER_ENERGY_H
#define LADDER_ENERGY_H

#include <stddef.h>

#include "harness/device/device.h"
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
/* The readings from the first-th on, up to max, oldest first; returns how many. */
size_t ladder_energy_poller_readings(ladder_energy_poller *poller, size_t first, ladder_energy_reading *out,
                                     size_t max);
void ladder_energy_poller_stop(ladder_energy_poller *poller);

/* ---- what the readings say (no GPU, no clock: the tests feed them) ---- */

/* A counter that moves by fewer millijoules than this over a period is too
 * coarse to resolve it to 1 %. */
#define LADDER_ENERGY_MIN_MJ 100ull
/* Updates further apart than this make a rung's window too long to be worth it. */
#define LADDER_ENERGY_MAX_PERIOD_S 0.5
/* A rung owns an update period it ran for at least this fraction of. */
#define LADDER_ENERGY_OWNED 0.8

/* An update of the counter: the number of periods since the first one,
 * when the readings saw it (the midpoint of the two readings around it),
 * and the value from then on. */
typedef struct ladder_energy_update {
    long index;
    double seen_s;
    unsigned long long mj;
} ladder_energy_update;

/* The updates in readings [from, count) (reading `from` is the reference;
 * only changes after it count), numbered on from `*previous` (NULL: the
 * first is 0) with the period `period_s`. Returns how many were written to
 * out (at most max), or -1 with the reason when a reading failed or the
 * counter went backwards (or wrapped). */
int ladder_energy_find_updates(const ladder_energy_reading *readings, size_t from, size_t count, double period_s,
                               const ladder_energy_update *previous, ladder_energy_update *out, int max,
                               const char **reason);

/* The line through the updates' times: update k at first_s + k * period_s
 * (least squares; with one update, the period given). */
typedef struct ladder_energy_clock {
    double first_s, period_s;
} ladder_energy_clock;
ladder_energy_clock ladder_energy_fit(const ladder_energy_update *updates, int count, double period_s);

/* Each rung's average power. Rung i ran from switch_s[i] to switch_s[i+1]
 * (rungs + 1 times); period k runs from clock's update k to update k+1 and
 * holds joules[k] (NAN where an update was not seen). A rung's power comes
 * from the periods it ran for at least LADDER_ENERGY_OWNED of, less the
 * parts its neighbours ran, at their own powers. watts[i] is NAN with
 * reasons[i] set for a rung that owns no period or comes out not positive. */
void ladder_energy_attribute(ladder_energy_clock clock, const double *joules, int periods, const double *switch_s,
                             int rungs, double *watts, const char **reasons);

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

/* One rung of a chain: how to launch it, its timed median (which sizes
 * its batches) and one run's work. */
typedef struct ladder_energy_rung {
    ladder_launch launch;
    void *context;
    double ms_per_run, flops, bytes;
} ladder_energy_rung;

/* The board's energy per run of each rung, the rungs run back to back one
 * after another, as above, into out[0..n). Where the session has no
 * counter, its note's reason; a failure's reason is said once per run. */
void ladder_energy_measure_ladder(const ladder_energy_rung *rungs, int n, ladder_energy *out);

/* A reason said on stderr once per run (the first time it comes). */
void ladder_energy_say_once(const char *reason);

#endif
