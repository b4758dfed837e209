/* `ropekit bench`: options, the run loop and the report. */
#include "bench.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "busy.h"
#include "host.h"
#include "measure.h"
#include "report.h"
#include "workloads.h"

#define RKB_MAX_CUSTOM 8

static void rkb_usage(FILE *out) {
    fprintf(out,
            "usage: ropekit bench [options]\n\n"
            "Times the RoPE workloads (W1-W5 and the D1 decode step RopeWithSinCosCache,\n"
            "P1-P3 and G2 InplacePartialRotaryMul, I1 InterleaveRope, R1\n"
            "RotaryPositionEmbedding, RG1 and RG2 its gradient without and with dcos/dsin,\n"
            "A1 ApplyRotaryPosEmb) per dtype, style and thread count,\n"
            "through each face, in rounds interleaved with two baselines (ratios paired per\n"
            "round), and the scalar path:\n"
            "  native      a plan made once, executed in place (I1, R1, RG1, RG2: out of\n"
            "              place, the only form of their operators)\n"
            "  native_oop  the same with separate outputs (RopeWithSinCosCache)\n"
            "  aclnn       GetWorkspaceSize + execute + aclrtSynchronizeStream, in place\n"
            "              (I1, R1, RG1, RG2: out of place, as the native face)\n"
            "  aclnn_oop   the same with separate outputs (RopeWithSinCosCache)\n"
            "  copy        memcpy of the same number of bytes (dense)\n"
            "  touch       read and write back in place just the bytes the op touches,\n"
            "              with its row geometry (rows, stride, used bytes) and prefetch\n"
            "Also: median, p90, the library's CPU time per call and in the 10 ms after a\n"
            "call returns.\n\n"
            "options:\n"
            "  --threads N        largest thread count (runs 1..N; default: online CPUs)\n"
            "  --workload LIST    comma-separated ids (default: all), e.g. W2,P2\n"
            "  --add SPEC         extra workload: rope:T,Hq,Hk,hs,R[,maxpos] or\n"
            "                     pr:B,S,N,D,start,end[,cB,cS,cN] (repeatable)\n"
            "  --dtype LIST       f32,f16,bf16,mixed,f64 (default: all but f64; f64: native only)\n"
            "  --style LIST       neox,gptj,half,interleave,quarter,interleave-half\n"
            "                     (default: all that apply)\n"
            "  --faces LIST       native,native_oop,aclnn,aclnn_oop (default: all that apply)\n"
            "  --host-openmp      run an OpenMP region of the host before every timed call,\n"
            "                     as a framework runs its own operators between calls\n"
            "  --host-parallel-for  run the library's parallel work on the host's OpenMP\n"
            "                     threads (ropekit_set_parallel_for) instead of its pool\n"
            "  --neighbour        keep another process spinning on a core throughout\n"
            "  --no-scalar        skip the scalar column\n"
            "  --quick            shorter measurements\n"
            "  --json             machine-readable output on stdout\n");
}

/* Every item of a comma-separated option value must be one of `valid` (n names): else a
 * message that names the item and lists the valid ones, and false. */
static bool rkb_list_valid(const char *option, const char *list, const char *const *valid, int n) {
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        bool known = false;
        for (int i = 0; i < n && !known; i++)
            known = strlen(valid[i]) == len && strncmp(valid[i], p, len) == 0;
        if (!known) {
            fprintf(stderr, "ropekit bench: %s %s: unknown value '%.*s'; valid:", option, list,
                    (int)len, p);
            for (int i = 0; i < n; i++)
                fprintf(stderr, "%s %s", i ? "," : "", valid[i]);
            fprintf(stderr, "\n");
            return false;
        }
        p += len + (end ? 1 : 0);
    }
    return true;
}

/* The option values that name things (workloads, dtypes, styles, faces) are known ones. */
static bool rkb_lists_valid(const char *workloads, const char *dtypes, const char *styles,
                            const char *faces) {
    enum { MAX_NAMES = 64 };
    const char *names[MAX_NAMES];
    int nbuiltin, ndt, n = 0;
    const struct rkb_workload *builtin = rkb_builtin(&nbuiltin);
    for (int i = 0; i < nbuiltin && n < MAX_NAMES; i++)
        names[n++] = builtin[i].id;
    if (!rkb_list_valid("--workload", workloads, names, n))
        return false;
    const struct rkb_dtype_choice *dt = rkb_dtype_choices(&ndt);
    n = 0;
    for (int i = 0; i < ndt && n < MAX_NAMES; i++)
        names[n++] = dt[i].name;
    if (!rkb_list_valid("--dtype", dtypes, names, n))
        return false;
    int nstyles;
    const char *const *styles_all = rkb_style_names(&nstyles);
    if (!rkb_list_valid("--style", styles, styles_all, nstyles))
        return false;
    n = 0;
    for (int f = 0; f < RKB_FACE_COUNT && n < MAX_NAMES; f++)
        names[n++] = rkb_face_name((enum rkb_face)f);
    return rkb_list_valid("--faces", faces, names, n);
}

static int rkb_online_cpus(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n >= 1 ? (int)n : 1;
}

struct rkb_run {
    struct rkb_options opt;
    struct rkb_workload workloads[32];
    int nworkloads;
    const char *wanted, *dtypes, *styles;
};

static int rkb_parse(int argc, char **argv, struct rkb_run *r) {
    int nbuiltin;
    const struct rkb_workload *builtin = rkb_builtin(&nbuiltin);
    struct rkb_workload custom[RKB_MAX_CUSTOM];
    int ncustom = 0;
    r->opt.max_threads = rkb_online_cpus();
    r->opt.budget_s = 0.3;
    r->opt.rounds = 3;
    r->opt.scalar = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            rkb_usage(stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            r->opt.json = true;
        } else if (!strcmp(a, "--quick")) {
            r->opt.budget_s = 0.05; /* still 3 rounds: a median of 2 is their mean */
        } else if (!strcmp(a, "--host-openmp")) {
            r->opt.host_openmp = true;
        } else if (!strcmp(a, "--host-parallel-for")) {
            r->opt.host_parallel_for = true;
        } else if (!strcmp(a, "--neighbour")) {
            r->opt.neighbour = true;
        } else if (!strcmp(a, "--faces") && val) {
            r->opt.faces = val;
            i++;
        } else if (!strcmp(a, "--no-scalar")) {
            r->opt.scalar = false;
        } else if (!strcmp(a, "--threads") && val) {
            r->opt.max_threads = atoi(val);
            i++;
            if (r->opt.max_threads < 1 || r->opt.max_threads > 4096)
                return fprintf(stderr, "ropekit bench: --threads %s: must be 1..4096\n", val), 2;
        } else if (!strcmp(a, "--workload") && val) {
            r->wanted = val;
            i++;
        } else if (!strcmp(a, "--dtype") && val) {
            r->dtypes = val;
            i++;
        } else if (!strcmp(a, "--style") && val) {
            r->styles = val;
            i++;
        } else if (!strcmp(a, "--add") && val) {
            if (ncustom == RKB_MAX_CUSTOM || !rkb_parse_workload(val, &custom[ncustom]))
                return fprintf(stderr, "ropekit bench: --add %s: not a workload spec\n", val), 2;
            snprintf(custom[ncustom].id, sizeof custom[ncustom].id, "C%d", ncustom + 1);
            ncustom++;
            i++;
        } else {
            fprintf(stderr, "ropekit bench: unknown option '%s'\n\n", a);
            rkb_usage(stderr);
            return 2;
        }
    }
    if (!rkb_lists_valid(r->wanted, r->dtypes, r->styles, r->opt.faces))
        return 2;
    for (int i = 0; i < nbuiltin; i++)
        if (r->wanted ? rkb_in_list(r->wanted, builtin[i].id) : ncustom == 0)
            r->workloads[r->nworkloads++] = builtin[i];
    for (int i = 0; i < ncustom; i++)
        r->workloads[r->nworkloads++] = custom[i];
    return -1;
}

/* The configurations of one workload: dtype choices x styles that apply (the decode step:
 * bf16 NeoX only; the other operators: the dtypes and styles their workload names). */
static int rkb_configs(const struct rkb_run *r, const struct rkb_workload *w,
                       struct rkb_config *out) {
    int n = 0, ndt, styles[4];
    const int nstyles = rkb_workload_styles(w, r->styles, styles);
    const struct rkb_dtype_choice *rkb_dtypes = rkb_dtype_choices(&ndt);
    for (int d = 0; d < ndt; d++) {
        if (!rkb_in_list(r->dtypes, rkb_dtypes[d].name) ||
            (!r->dtypes && !w->dtypes && !rkb_dtypes[d].by_default) ||
            (w->dtypes && !rkb_in_list(w->dtypes, rkb_dtypes[d].name)))
            continue;
        if (w->latency && d != 2)
            continue;
        for (int s = 0; s < nstyles; s++) {
            if (w->latency && styles[s] != ROPEKIT_ROPE_NEOX)
                continue;
            struct rkb_config c = {w, rkb_dtypes[d].x, rkb_dtypes[d].cs, styles[s], RKB_NATIVE};
            out[n++] = c;
        }
    }
    return n;
}

/* Progress on stderr when it is a terminal (with --json too: the JSON goes to stdout). */
static void rkb_progress(int done, int total, const char *what) {
    if (!isatty(STDERR_FILENO))
        return;
    fprintf(stderr, "\r\033[K[%3d/%3d] %s", done, total, what);
    fflush(stderr);
}

/* Library CPU time in the 10 ms after one call returns: the median and the largest of
 * five samples. */
static void rkb_after(struct rkb_case *k, struct rkb_face_result *f) {
    enum { SAMPLES = 5 };
    double s[SAMPLES];
    for (int i = 0; i < SAMPLES; i++) {
        rkb_case_run(k);
        const double c0 = rkb_library_cpu_s(false);
        const struct timespec ten_ms = {0, 10 * 1000 * 1000};
        nanosleep(&ten_ms, NULL);
        s[i] = rkb_library_cpu_s(false) - c0;
    }
    for (int i = 1; i < SAMPLES; i++) /* insertion sort of five */
        for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
            double t = s[j];
            s[j] = s[j - 1];
            s[j - 1] = t;
        }
    f->after_s = s[SAMPLES / 2];
    f->after_max_s = s[SAMPLES - 1];
}

/* Measures one configuration at `threads`: each face in rounds interleaved with the copy
 * and touch baselines, the CPU time after a call, and the scalar path when asked. */
static bool rkb_measure(const struct rkb_run *r, const struct rkb_config *c, int threads,
                        struct rkb_result *res) {
    memset(res, 0, sizeof *res);
    res->cfg = *c;
    res->threads = threads;
    ropekit_set_num_threads(threads);
    ropekit_set_max_isa(ROPEKIT_ISA_AVX512);
    res->isa = ropekit_get_active_isa();
    struct rkb_case *cases[RKB_FACE_COUNT] = {NULL};
    struct rkb_task tasks[RKB_MAX_TASKS];
    int slot[RKB_FACE_COUNT], ntasks = 0;
    bool ok = true;
    for (int f = 0; f < RKB_FACE_COUNT; f++) {
        struct rkb_config cf = *c;
        cf.face = (enum rkb_face)f;
        slot[f] = -1;
        if (!rkb_face_applies(&cf) || !rkb_in_list(r->opt.faces, rkb_face_name(cf.face)))
            continue;
        if (!(cases[f] = rkb_case_new(&cf))) {
            ok = false;
            continue;
        }
        res->face[f].bytes = rkb_bytes(&cf);
        tasks[ntasks] =
            (struct rkb_task){(void (*)(void *))rkb_case_run, cases[f], res->face[f].bytes};
        slot[f] = ntasks++;
    }
    if (cases[RKB_NATIVE])
        snprintf(res->plan, sizeof res->plan, "%s", rkb_case_describe(cases[RKB_NATIVE]));
    int copy = -1, touch = -1;
    int64_t rows, stride, used;
    const double nat_bytes = rkb_bytes(c);
    if (ntasks && rkb_copy_task(nat_bytes, threads, &tasks[ntasks]))
        copy = ntasks++;
    if (ntasks && rkb_touch_geometry(c, &rows, &stride, &used) &&
        rkb_touch_task(rows, stride, used, threads, &tasks[ntasks]))
        touch = ntasks++;
    const struct rkb_between host = rkb_host_region(threads);
    const struct rkb_between *between = r->opt.host_openmp && host.ctx ? &host : NULL;
    struct rkb_paired p;
    ok = ok && ntasks > 0 &&
         rkb_time_paired(tasks, ntasks, r->opt.rounds, r->opt.budget_s, 2,
                         c->w->latency ? 200000 : 10000, between, &p);
    const int base = slot[RKB_NATIVE];
    for (int f = 0; ok && f < RKB_FACE_COUNT; f++) {
        struct rkb_face_result *x = &res->face[f];
        const int i = slot[f], twin = slot[rkb_face_native_twin((enum rkb_face)f)];
        if (i < 0)
            continue;
        x->measured = true;
        x->median_s = p.t[i].median_s;
        x->min_s = p.t[i].min_s;
        x->p90_s = p.t[i].p90_s;
        x->cpu_per_call_s = p.t[i].cpu_per_run_s;
        x->vs_native = twin >= 0 ? p.ratio[twin][i] : 0;
        x->copy_ratio = copy >= 0 ? p.ratio[i][copy] : 0;
        rkb_after(cases[f], x);
    }
    if (ok && copy >= 0)
        res->copy_bw = p.bw[copy];
    if (ok && touch >= 0 && base >= 0) {
        res->touch_bw = p.bw[touch];
        res->touch_ratio = p.ratio[base][touch];
    }
    for (int f = 0; f < RKB_FACE_COUNT; f++)
        rkb_case_free(cases[f]);
    if (ok && r->opt.scalar && base >= 0 && res->isa != ROPEKIT_ISA_SCALAR) {
        ropekit_set_max_isa(ROPEKIT_ISA_SCALAR);
        struct rkb_case *ks = rkb_case_new(c);
        if (ks) {
            struct rkb_timing ts =
                rkb_time((void (*)(void *))rkb_case_run, ks, r->opt.budget_s, 2, 100);
            res->scalar_median_s = ts.median_s;
            rkb_case_free(ks);
        }
        ropekit_set_max_isa(ROPEKIT_ISA_AVX512);
    }
    ropekit_set_num_threads(0);
    return ok;
}

int rkb_main(int argc, char **argv) {
    struct rkb_run r;
    memset(&r, 0, sizeof r);
    int st = rkb_parse(argc, argv, &r);
    if (st >= 0)
        return st;
    if (!r.opt.host_openmp) /* with host regions, their threads behave as a host's would */
        rkb_host_openmp_spin_short(argc, argv);
    if (r.opt.host_parallel_for && !rkb_host_parallel_for_install()) {
        fprintf(stderr, "ropekit bench: --host-parallel-for needs a build with OpenMP\n");
        return 2;
    }
    struct rkb_config configs[64];
    int total = 0;
    for (int i = 0; i < r.nworkloads; i++)
        total += rkb_configs(&r, &r.workloads[i], configs) * r.opt.max_threads;
    struct rkb_result *results = calloc((size_t)(total > 0 ? total : 1), sizeof *results);
    if (!results)
        return 1;
    int n = 0;
    bool failed = false;
    if (r.opt.neighbour && !rkb_neighbour_start()) {
        fprintf(stderr, "ropekit bench: cannot start the neighbour process\n");
        free(results);
        return 1;
    }
    struct rkb_busy busy;
    rkb_busy_start(&busy);
    for (int i = 0; i < r.nworkloads; i++) {
        int nc = rkb_configs(&r, &r.workloads[i], configs);
        for (int c = 0; c < nc; c++)
            for (int t = 1; t <= r.opt.max_threads; t++) {
                char what[128];
                snprintf(what, sizeof what, "%s %s %s/%s threads %d", configs[c].w->id,
                         rkb_style_name(&configs[c]), ropekit_dtype_name(configs[c].x_dtype),
                         ropekit_dtype_name(configs[c].cs_dtype), t);
                rkb_progress(n, total, what);
                if (rkb_measure(&r, &configs[c], t, &results[n]))
                    n++;
                else
                    failed = true;
            }
    }
    rkb_neighbour_stop();
    rkb_progress(n, total, "done");
    if (isatty(STDERR_FILENO))
        fprintf(stderr, "\r\033[K");
    r.opt.busy_others = rkb_busy_others(&busy);
    if (r.opt.busy_others > RKB_BUSY_WARN && !r.opt.neighbour)
        fprintf(stderr,
                "ropekit bench: warning: other processes used %.0f%% of the %d CPUs while it "
                "measured; the figures may be disturbed (the ratios less than the times)\n",
                100 * r.opt.busy_others, busy.cpus);
    if (r.opt.json)
        rkb_report_json(stdout, &r.opt, results, n);
    else
        rkb_report_table(stdout, &r.opt, results, n);
    free(results);
    rkb_baselines_free();
    return failed ? 1 : 0;
}
