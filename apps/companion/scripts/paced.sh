# Sourced by the smoke scripts: `paced N` prints N stretched by this host's pace
# (FLAGLIGHT_TEST_PACE, measured by `npm test`: scripts/test-pace.mjs, decision 054), a whole
# number, for a ceiling such as `timeout` or a count of half-second polls. Without a pace, or with a
# pace outside 1–3, the bound nearest it. In CI, 3 whatever the pace: every ceiling stretches by the
# most a pace can read there (CEILING_PACE in scripts/test-pace.mjs).
paced() {
  awk -v n="$1" -v p="${FLAGLIGHT_TEST_PACE:-1}" -v ci="${CI:-}" 'BEGIN {
    p += 0; if (p < 1) p = 1; if (p > 3 || ci != "") p = 3
    printf "%d\n", n * p + 0.5
  }'
}
