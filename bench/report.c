#include "report.h"

#include <string.h>

/* Targets of the performance issues. */
#define RKB_TARGET_COPY_FRACTION 0.90 /* out-of-cache workloads at the largest thread count */
/* RotaryPositionEmbeddingGrad with dcos/dsin: the sums are scalar float64 in one fixed
 * order (src/ops/rotary_grad/cs_grad.c), about 16 instructions per element against 2 for
 * dx (callgrind, avx2); measured at 16-28% of copy on 2 threads (README). */
#define RKB_TARGET_CS_GRAD_COPY_FRACTION 0.15
#define RKB_TARGET_IN_CACHE_GBPS 70.0 /* in-cache workloads at the largest thread count */
#define RKB_TARGET_LATENCY_US 2.0     /* the decode step's aclnn round trip */
#define RKB_TARGET_VS_NATIVE 1.15     /* an aclnn face against the native face, same run */
#define RKB_TARGET_P90 1.3            /* p90 / median: steady */
#define RKB_TARGET_AFTER_MS 0.2       /* library CPU in the 10 ms after a call */
#define RKB_TARGET_SCALING 0.55       /* W1 through aclnn: N threads / 1 thread */
#define RKB_TARGET_W1_F32_US 22.0     /* W1 f32 through aclnn at N threads */
#define RKB_TARGET_NEIGHBOUR 1.3      /* with a busy neighbour: N threads / 1 thread */

static double rkb_gbps(const struct rkb_face_result *f) {
    return f->median_s > 0 ? f->bytes / f->median_s / 1e9 : 0;
}

static void rkb_dtype_pair(const struct rkb_result *r, char *buf, size_t len) {
    snprintf(buf, len, "%s/%s", ropekit_dtype_name(r->cfg.x_dtype),
             ropekit_dtype_name(r->cfg.cs_dtype));
}

static const struct rkb_result *rkb_same_at(const struct rkb_result *all, int n,
                                            const struct rkb_result *r, int threads) {
    for (int i = 0; i < n; i++)
        if (all[i].cfg.w == r->cfg.w && all[i].cfg.style == r->cfg.style &&
            all[i].cfg.x_dtype == r->cfg.x_dtype && all[i].cfg.cs_dtype == r->cfg.cs_dtype &&
            all[i].threads == threads)
            return &all[i];
    return NULL;
}

#define RKB_MAX_CHECKS 24

struct rkb_check {
    char name[32];
    bool met;
    char detail[112];
};

struct rkb_checks {
    struct rkb_check c[RKB_MAX_CHECKS];
    int n;
};

static void rkb_check_add(struct rkb_checks *cs, const char *face, const char *what, bool met,
                          const char *fmt, double a, double b) {
    if (cs->n == RKB_MAX_CHECKS)
        return;
    struct rkb_check *c = &cs->c[cs->n++];
    snprintf(c->name, sizeof c->name, "%s %s", face, what);
    c->met = met;
    snprintf(c->detail, sizeof c->detail, fmt, a, b);
}

/* Every target a result is judged against. */
static void rkb_checks_of(const struct rkb_options *opt, const struct rkb_result *all, int n,
                          const struct rkb_result *r, struct rkb_checks *cs) {
    const struct rkb_workload *w = r->cfg.w;
    const bool top = r->threads == opt->max_threads, custom = w->id[0] == 'C';
    /* float64, the reference dtype (AVX2 kernels at most), has no speed targets */
    const bool speed = r->cfg.x_dtype != ROPEKIT_F64;
    const struct rkb_result *one = rkb_same_at(all, n, r, 1);
    cs->n = 0;
    for (int f = 0; f < RKB_FACE_COUNT; f++) {
        const struct rkb_face_result *x = &r->face[f];
        const char *fn = rkb_face_name((enum rkb_face)f);
        if (!x->measured)
            continue;
        if ((int)rkb_face_native_twin((enum rkb_face)f) != f && !w->latency)
            rkb_check_add(cs, fn, "vs native", x->vs_native <= RKB_TARGET_VS_NATIVE,
                          "%.2fx the native time per byte (target <= %.2fx)", x->vs_native,
                          RKB_TARGET_VS_NATIVE);
        if (!opt->neighbour)
            rkb_check_add(cs, fn, "steady", x->p90_s <= RKB_TARGET_P90 * x->median_s,
                          "p90 %.2fx the median (target <= %.1fx)", x->p90_s / x->median_s,
                          RKB_TARGET_P90);
        if (r->threads > 1)
            rkb_check_add(cs, fn, "idle after", x->after_s * 1e3 <= RKB_TARGET_AFTER_MS,
                          "%.3f ms of CPU in the 10 ms after a call (target <= %.1f ms)",
                          x->after_s * 1e3, RKB_TARGET_AFTER_MS);
        const double copy_target = w->kind == RKB_RPE_GRAD && w->cs_grad
                                       ? RKB_TARGET_CS_GRAD_COPY_FRACTION
                                       : RKB_TARGET_COPY_FRACTION;
        if (speed && top && !custom && !w->in_cache && x->copy_ratio > 0)
            rkb_check_add(cs, fn, "bandwidth", x->copy_ratio >= copy_target,
                          "%.0f%% of copy (target >= %.0f%%)", 100 * x->copy_ratio,
                          100 * copy_target);
        if (speed && top && !custom && w->in_cache && !w->latency && f == RKB_NATIVE)
            rkb_check_add(cs, fn, "in cache", rkb_gbps(x) >= RKB_TARGET_IN_CACHE_GBPS,
                          "%.1f GB/s (target >= %.0f)", rkb_gbps(x), RKB_TARGET_IN_CACHE_GBPS);
        if (w->latency && f == RKB_ACLNN)
            rkb_check_add(cs, fn, "latency", x->median_s * 1e6 <= RKB_TARGET_LATENCY_US,
                          "round trip %.2f us (target <= %.1f)", x->median_s * 1e6,
                          RKB_TARGET_LATENCY_US);
        const struct rkb_face_result *x1 = one ? &one->face[f] : NULL;
        if (r->threads > 1 && x1 && x1->measured && x1->median_s > 0) {
            const double scale = x->median_s / x1->median_s;
            if (!strcmp(w->id, "W1") && f == RKB_ACLNN && !opt->neighbour)
                rkb_check_add(cs, fn, "scaling", scale <= RKB_TARGET_SCALING,
                              "%.2fx the 1-thread time (target <= %.2fx)", scale,
                              RKB_TARGET_SCALING);
            if (opt->neighbour)
                rkb_check_add(cs, fn, "neighbour", scale <= RKB_TARGET_NEIGHBOUR,
                              "%.2fx the 1-thread time with a busy neighbour (target <= %.1fx)",
                              scale, RKB_TARGET_NEIGHBOUR);
        }
        if (top && r->threads > 1 && !strcmp(w->id, "W1") && f == RKB_ACLNN &&
            r->cfg.x_dtype == ROPEKIT_F32 && !opt->neighbour)
            rkb_check_add(cs, fn, "W1 f32", x->median_s * 1e6 <= RKB_TARGET_W1_F32_US,
                          "%.1f us (target <= %.0f us)", x->median_s * 1e6, RKB_TARGET_W1_F32_US);
    }
}

static void rkb_print_face(FILE *out, const struct rkb_face_result *f, bool ratio) {
    if (!f->measured) {
        fprintf(out, " %8s %8s%s", "-", "-", ratio ? "      " : "");
        return;
    }
    fprintf(out, " %8.2f %8.2f", f->median_s * 1e6, f->p90_s * 1e6);
    if (ratio)
        fprintf(out, " %4.2fx", f->vs_native);
}

void rkb_report_table(FILE *out, const struct rkb_options *opt, const struct rkb_result *r, int n) {
    fprintf(out, "ropekit %s bench  isa %s  threads 1..%d%s%s%s\n", ropekit_version_string(),
            ropekit_isa_name(ropekit_isa_detected()), opt->max_threads,
            opt->host_openmp ? "  host OpenMP regions between calls" : "",
            opt->host_parallel_for ? "  on the host's OpenMP threads" : "",
            opt->neighbour ? "  a busy neighbour process" : "");
    fprintf(out, "(times in us: median and p90; xnat: time per byte against the native face in "
                 "place or out of place alike; "
                 "GB/s = bytes the op must move / median time;\n %%copy and %%touch: native "
                 "against memcpy of as many bytes and against touching the op's own bytes in "
                 "place,\n ratios paired per round; cpu: library CPU us per call; after: ms of "
                 "library CPU in the 10 ms after a call)\n");
    fprintf(out,
            "%-4s %-10s %-9s %3s %8s %8s %8s %8s %5s %8s %8s %8s %5s %7s %5s %5s %7s %6s %7s\n",
            "id", "style", "x/cs", "thr", "native", "p90", "aclnn", "p90", "xnat", "nat_oop",
            "acl_oop", "p90", "xnat", "GB/s", "%copy", "%tch", "cpu", "after", "scalar");
    const char *last = "";
    for (int i = 0; i < n; i++) {
        const struct rkb_result *x = &r[i];
        const struct rkb_face_result *nat = &x->face[RKB_NATIVE];
        char dt[24];
        rkb_dtype_pair(x, dt, sizeof dt);
        if (strcmp(last, x->cfg.w->id) != 0) {
            fprintf(out, "-- %s: %s\n", x->cfg.w->id, x->cfg.w->what);
            last = x->cfg.w->id;
        }
        fprintf(out, "%-4s %-10s %-9s %3d", x->cfg.w->id, rkb_style_name(&x->cfg), dt, x->threads);
        rkb_print_face(out, nat, false);
        rkb_print_face(out, &x->face[RKB_ACLNN], true);
        if (x->face[RKB_NATIVE_OOP].measured)
            fprintf(out, " %8.2f", x->face[RKB_NATIVE_OOP].median_s * 1e6);
        else
            fprintf(out, " %8s", "-");
        rkb_print_face(out, &x->face[RKB_ACLNN_OOP], true);
        fprintf(out, " %7.1f", rkb_gbps(nat));
        if (x->copy_bw > 0)
            fprintf(out, " %4.0f%%", 100 * nat->copy_ratio);
        else
            fprintf(out, " %5s", "-");
        if (x->touch_bw > 0)
            fprintf(out, " %4.0f%%", 100 * x->touch_ratio);
        else
            fprintf(out, " %5s", "-");
        const struct rkb_face_result *busiest =
            x->face[RKB_ACLNN].measured ? &x->face[RKB_ACLNN] : nat;
        fprintf(out, " %7.2f %6.3f", busiest->cpu_per_call_s * 1e6, busiest->after_max_s * 1e3);
        if (x->scalar_median_s > 0)
            fprintf(out, " %6.1fx\n", x->scalar_median_s / nat->median_s);
        else
            fprintf(out, " %7s\n", "-");
    }
    int met = 0, judged = 0;
    fprintf(out, "\ntargets (missed ones listed; cpu/after columns: the aclnn face where "
                 "measured):\n");
    for (int i = 0; i < n; i++) {
        struct rkb_checks cs;
        rkb_checks_of(opt, r, n, &r[i], &cs);
        for (int c = 0; c < cs.n; c++) {
            judged++;
            met += cs.c[c].met;
            if (cs.c[c].met)
                continue;
            char dt[24];
            rkb_dtype_pair(&r[i], dt, sizeof dt);
            fprintf(out, "  MISSED %-4s %-10s %-9s thr %d  %-20s %s\n", r[i].cfg.w->id,
                    rkb_style_name(&r[i].cfg), dt, r[i].threads, cs.c[c].name, cs.c[c].detail);
        }
    }
    fprintf(out, "%d of %d targets met\n", met, judged);
    if (opt->busy_others >= 0)
        fprintf(out, "other processes used %.0f%% of the CPUs while it measured\n",
                100 * opt->busy_others);
}

static void rkb_json_str(FILE *out, const char *s) {
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if ((unsigned char)*s >= 0x20)
            fputc(*s, out);
    }
    fputc('"', out);
}

static void rkb_json_face(FILE *out, const struct rkb_face_result *f) {
    fprintf(out,
            "{\"bytes\": %.0f, \"median_us\": %.3f, \"min_us\": %.3f, \"p90_us\": %.3f, "
            "\"gbps\": %.3f, \"vs_native\": %.4f, \"copy_ratio\": %.4f, \"cpu_us_per_call\": "
            "%.3f, \"after_ms\": %.4f, \"after_max_ms\": %.4f}",
            f->bytes, f->median_s * 1e6, f->min_s * 1e6, f->p90_s * 1e6, rkb_gbps(f), f->vs_native,
            f->copy_ratio, f->cpu_per_call_s * 1e6, f->after_s * 1e3, f->after_max_s * 1e3);
}

void rkb_report_json(FILE *out, const struct rkb_options *opt, const struct rkb_result *r, int n) {
    fprintf(out,
            "{\n  \"version\": \"%s\",\n  \"isa\": \"%s\",\n  \"max_threads\": %d,\n"
            "  \"host_openmp\": %s,\n  \"host_parallel_for\": %s,\n  \"neighbour\": %s,\n"
            "  \"busy_others\": %.3f,\n",
            ropekit_version_string(), ropekit_isa_name(ropekit_isa_detected()), opt->max_threads,
            opt->host_openmp ? "true" : "false", opt->host_parallel_for ? "true" : "false",
            opt->neighbour ? "true" : "false", opt->busy_others);
    fprintf(out, "  \"results\": [\n");
    for (int i = 0; i < n; i++) {
        const struct rkb_result *x = &r[i];
        const struct rkb_face_result *nat = &x->face[RKB_NATIVE];
        struct rkb_checks cs;
        rkb_checks_of(opt, r, n, x, &cs);
        bool all_met = true;
        for (int c = 0; c < cs.n; c++)
            all_met = all_met && cs.c[c].met;
        fprintf(out, "    {\"id\": ");
        rkb_json_str(out, x->cfg.w->id);
        fprintf(out, ", \"workload\": ");
        rkb_json_str(out, x->cfg.w->what);
        fprintf(out,
                ", \"style\": \"%s\", \"x_dtype\": \"%s\", \"cs_dtype\": \"%s\", "
                "\"threads\": %d, \"isa\": \"%s\", \"bytes\": %.0f, \"median_us\": %.3f, "
                "\"min_us\": %.3f, \"p90_us\": %.3f, \"gbps\": %.3f, \"copy_gbps\": %.3f, "
                "\"touch_gbps\": %.3f, \"copy_ratio\": %.4f, \"touch_ratio\": %.4f, "
                "\"scalar_gbps\": %.3f, \"target\": %s,\n     \"faces\": {",
                rkb_style_name(&x->cfg), ropekit_dtype_name(x->cfg.x_dtype),
                ropekit_dtype_name(x->cfg.cs_dtype), x->threads, ropekit_isa_name(x->isa),
                nat->bytes, nat->median_s * 1e6, nat->min_s * 1e6, nat->p90_s * 1e6, rkb_gbps(nat),
                x->copy_bw / 1e9, x->touch_bw / 1e9, nat->copy_ratio, x->touch_ratio,
                x->scalar_median_s > 0 ? nat->bytes / x->scalar_median_s / 1e9 : 0.0,
                cs.n == 0 ? "null"
                : all_met ? "true"
                          : "false");
        const char *sep = "";
        for (int f = 0; f < RKB_FACE_COUNT; f++) {
            if (!x->face[f].measured)
                continue;
            fprintf(out, "%s\"%s\": ", sep, rkb_face_name((enum rkb_face)f));
            rkb_json_face(out, &x->face[f]);
            sep = ", ";
        }
        fprintf(out, "},\n     \"targets\": [");
        for (int c = 0; c < cs.n; c++) {
            fprintf(out, "%s{\"name\": ", c ? ", " : "");
            rkb_json_str(out, cs.c[c].name);
            fprintf(out, ", \"met\": %s, \"detail\": ", cs.c[c].met ? "true" : "false");
            rkb_json_str(out, cs.c[c].detail);
            fputc('}', out);
        }
        fprintf(out, "],\n     \"plan\": ");
        rkb_json_str(out, x->plan);
        fprintf(out, "}%s\n", i + 1 < n ? "," : "");
    }
    fprintf(out, "  ]\n}\n");
}
