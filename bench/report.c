#include "report.h"

#include <string.h>

/* Targets of the performance issue. */
#define RKB_TARGET_COPY_FRACTION 0.90 /* out-of-cache workloads at the largest thread count */
#define RKB_TARGET_IN_CACHE_GBPS 70.0 /* in-cache workloads at the largest thread count */
#define RKB_TARGET_ROUNDTRIP_US 5.0

static double rkb_gbps(const struct rkb_result *r) {
    return r->median_s > 0 ? r->bytes / r->median_s / 1e9 : 0;
}

static void rkb_dtype_pair(const struct rkb_result *r, char *buf, size_t len) {
    snprintf(buf, len, "%s/%s", ropekit_dtype_name(r->cfg.x_dtype),
             ropekit_dtype_name(r->cfg.cs_dtype));
}

/* The target a row is judged against: 1 met, 0 missed, -1 not judged. */
static int rkb_target(const struct rkb_options *opt, const struct rkb_result *r, char *why,
                      size_t len) {
    if (r->cfg.w->kind == RKB_ROUNDTRIP) {
        double us = r->median_s * 1e6;
        snprintf(why, len, "round trip %.2f us (target <= %.1f)", us, RKB_TARGET_ROUNDTRIP_US);
        return us <= RKB_TARGET_ROUNDTRIP_US;
    }
    if (r->threads != opt->max_threads || r->cfg.w->id[0] == 'C')
        return -1;
    if (r->cfg.w->in_cache) {
        snprintf(why, len, "%.1f GB/s (target >= %.0f)", rkb_gbps(r), RKB_TARGET_IN_CACHE_GBPS);
        return rkb_gbps(r) >= RKB_TARGET_IN_CACHE_GBPS;
    }
    const double frac = r->copy_ratio;
    snprintf(why, len, "%.0f%% of copy (target >= %.0f%%)", 100 * frac,
             100 * RKB_TARGET_COPY_FRACTION);
    return frac >= RKB_TARGET_COPY_FRACTION;
}

void rkb_report_table(FILE *out, const struct rkb_options *opt, const struct rkb_result *r, int n) {
    fprintf(out,
            "ropekit %s bench  isa %s  threads 1..%d  (GB/s = bytes the op must move / "
            "median time)\n",
            ropekit_version_string(), ropekit_isa_name(ropekit_isa_detected()), opt->max_threads);
    fprintf(out, "(%%copy: vs memcpy of as many bytes; %%touch: vs reading and writing back in "
                 "place just the op's bytes, same rows; ratios paired per round)\n");
    fprintf(out, "%-4s %-10s %-9s %3s %10s %10s %8s %8s %6s %6s %8s %6s\n", "id", "style", "x/cs",
            "thr", "median_us", "min_us", "GB/s", "copyGB/s", "%copy", "%touch", "scalarGB",
            "simdx");
    const char *last = "";
    for (int i = 0; i < n; i++) {
        const struct rkb_result *x = &r[i];
        char dt[24];
        rkb_dtype_pair(x, dt, sizeof dt);
        if (strcmp(last, x->cfg.w->id) != 0) {
            fprintf(out, "-- %s: %s\n", x->cfg.w->id, x->cfg.w->what);
            last = x->cfg.w->id;
        }
        fprintf(out, "%-4s %-10s %-9s %3d %10.1f %10.1f", x->cfg.w->id, rkb_style_name(&x->cfg), dt,
                x->threads, x->median_s * 1e6, x->min_s * 1e6);
        if (x->cfg.w->kind == RKB_ROUNDTRIP) {
            fprintf(out, "  (latency of GetWorkspaceSize + execute + sync)\n");
            continue;
        }
        fprintf(out, " %8.1f", rkb_gbps(x));
        if (x->copy_bw > 0)
            fprintf(out, " %8.1f %5.0f%%", x->copy_bw / 1e9, 100 * x->copy_ratio);
        else
            fprintf(out, " %8s %6s", "-", "-");
        if (x->touch_bw > 0)
            fprintf(out, " %5.0f%%", 100 * x->touch_ratio);
        else
            fprintf(out, " %6s", "-");
        if (x->scalar_median_s > 0)
            fprintf(out, " %8.2f %5.1fx\n", x->bytes / x->scalar_median_s / 1e9,
                    x->scalar_median_s / x->median_s);
        else
            fprintf(out, " %8s %6s\n", "-", "-");
    }
    int met = 0, judged = 0;
    fprintf(out, "\ntargets (largest thread count):\n");
    for (int i = 0; i < n; i++) {
        char why[96], dt[24];
        int t = rkb_target(opt, &r[i], why, sizeof why);
        if (t < 0)
            continue;
        judged++;
        met += t;
        rkb_dtype_pair(&r[i], dt, sizeof dt);
        fprintf(out, "  %-4s %-10s %-9s %-6s %s\n", r[i].cfg.w->id, rkb_style_name(&r[i].cfg), dt,
                t ? "met" : "MISSED", why);
    }
    fprintf(out, "%d of %d targets met\n", met, judged);
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

void rkb_report_json(FILE *out, const struct rkb_options *opt, const struct rkb_result *r, int n) {
    fprintf(out, "{\n  \"version\": \"%s\",\n  \"isa\": \"%s\",\n  \"max_threads\": %d,\n",
            ropekit_version_string(), ropekit_isa_name(ropekit_isa_detected()), opt->max_threads);
    fprintf(out, "  \"results\": [\n");
    for (int i = 0; i < n; i++) {
        const struct rkb_result *x = &r[i];
        char why[96];
        int t = rkb_target(opt, x, why, sizeof why);
        fprintf(out, "    {\"id\": ");
        rkb_json_str(out, x->cfg.w->id);
        fprintf(out, ", \"workload\": ");
        rkb_json_str(out, x->cfg.w->what);
        fprintf(out,
                ", \"style\": \"%s\", \"x_dtype\": \"%s\", \"cs_dtype\": \"%s\", "
                "\"threads\": %d, \"isa\": \"%s\", \"bytes\": %.0f, \"median_us\": %.3f, "
                "\"min_us\": %.3f, \"gbps\": %.3f, \"copy_gbps\": %.3f, \"touch_gbps\": %.3f, "
                "\"copy_ratio\": %.4f, \"touch_ratio\": %.4f, \"scalar_gbps\": %.3f, "
                "\"target\": %s, \"plan\": ",
                rkb_style_name(&x->cfg), ropekit_dtype_name(x->cfg.x_dtype),
                ropekit_dtype_name(x->cfg.cs_dtype), x->threads, ropekit_isa_name(x->isa), x->bytes,
                x->median_s * 1e6, x->min_s * 1e6, rkb_gbps(x), x->copy_bw / 1e9, x->touch_bw / 1e9,
                x->copy_ratio, x->touch_ratio,
                x->scalar_median_s > 0 ? x->bytes / x->scalar_median_s / 1e9 : 0.0,
                t < 0 ? "null"
                : t   ? "true"
                      : "false");
        rkb_json_str(out, x->plan);
        fprintf(out, "}%s\n", i + 1 < n ? "," : "");
    }
    fprintf(out, "  ]\n}\n");
}
