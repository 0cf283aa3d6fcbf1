# Sourced by device-call scripts. bench_rounds NAME BUNDLES SHAPES OPS FULL TIMEOUT
# runs utils/bench/bench.py on BUNDLES (--shapes SHAPES --ops OPS, no
# Inductor, the variant labels FULL also timed in full) in ${ROUNDS:-2}
# rounds, prints each round's variants (utils/bench/print_variants.py) and
# packs the rounds' bench.md / bench.json / bench.log as $OUT/NAME.tar.xz.
bench_rounds() {
  local name=$1 bundles=$2 shapes=$3 ops=$4 full=$5 limit=$6 dirs=() r o
  for r in $(seq 1 "${ROUNDS:-2}"); do
    o=$OUT/$name-$r; mkdir -p "$o"; dirs+=("$name-$r")
    timeout "$limit" python3 utils/bench/bench.py --bundles "$bundles" --out "$o" --shapes "$shapes" \
      --ops "$ops" --no-inductor --full "$full" > "$o/bench.log" 2>&1
    echo "bench $name round $r: exit $?, ${SECONDS} s"
    python3 utils/bench/print_variants.py "$o/bench.json"
  done
  tar -cJf "$OUT/$name.tar.xz" -C "$OUT" "${dirs[@]}" && (cd "$OUT" && rm -rf "${dirs[@]}")
}

# lowering_check NAME DIR TIMEOUT [LOGDIR]: runs DIR's check_cases.py (a
# carried lowering-check directory) into LOGDIR/lcheck-NAME.log (LOGDIR:
# $OUT) and prints the summary and the first failures.
lowering_check() {
  local name=$1 dir=$2 limit=$3 logdir=${4:-$OUT} log
  log=$logdir/lcheck-$name.log
  (cd "$dir" && timeout "$limit" python3 check_cases.py .) > "$log" 2>&1
  echo "lowering check $name: exit $?, ${SECONDS} s: $(tail -1 "$log")"
  grep -E "^FAIL" "$log" | head
}
