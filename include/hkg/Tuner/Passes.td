//===- Passes.td - hkg tuner passes ------------------------*- tablegen -*-===//
//
// The autotuning pass lives with the tuner, apart from the dialect's
// transforms, so that the dialect and the code generators do not link the
// tuner's dependencies (XGBoost, SQLite).
//
//===----------------------------------------------------------------------===//

#ifndef HKG_TUNER_PASSES_TD
#define HKG_TUNER_PASSES_TD

include "mlir/Pass/PassBase.td"

def HkgAutotunePass : Pass<"hkg-autotune"> {
  let summary = "Pick each hkg op's schedule by measuring, replaying or the policy";
  let description = [{
    For every op implementing `HkgKernelOpInterface` that has no `schedule`
    attribute, picks a schedule and attaches it; a remark on the op says how
    it was picked. Ops that already carry a schedule keep it.

    With `device=auto` and a device measurer available (the runtime installs
    one through `hkg::tuner::setMeasurerFactory`), the op is tuned by the
    tuning driver that `hkg-tune tune` uses too (`hkg/Tuner/TuningDriver.h`):
    the evolutionary, model-greedy and explorer agents share `budget`
    trials, each legal candidate is compiled, checked against the reference
    and timed, every measurement is stored in the database `db` at once (a
    killed run resumes where it stopped). Then the default and the
    `confirm-finalists` fastest correct candidates are re-measured
    `confirm-rounds` times each, and the lowest re-measured median wins
    (with either option 0, the search's fastest correct candidate wins as
    measured).

    With `device=none`, or when no device is available, the pass falls back
    in order to: the fastest ok record of the database for this op signature
    and target; the policy model (`model`, or one trained from the
    database) picking zero-shot among legal candidates; the default schedule.

    Before (`--hkg-autotune="chip=sm_90 device=none db=tune.sqlite"`):
    ```mlir
    %0 = hkg.softmax %x axis(1) : tensor<64x8192xf32> -> tensor<64x8192xf32>
    ```
    After (remark: `hkg-autotune: replayed the fastest database record ...`):
    ```mlir
    %0 = hkg.softmax %x axis(1) {schedule = #hkg.schedule<online = 1,
        row_cache = registers, rows_per_block = 1, threads = 256, unroll = 2,
        vector_width = 4>} : tensor<64x8192xf32> -> tensor<64x8192xf32>
    ```
    See docs/Tuning.md for the database, the model and the search.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "Target chip; default: the hkg.target attribute">,
    Option<"budget", "budget", "unsigned", /*default=*/"32",
           "Candidates to measure per op when a device is present">,
    Option<"batch", "batch", "unsigned", /*default=*/"1",
           "Candidates the search proposes at a time, compiled while the "
           "ones before are measured (hkg-tune --batch)">,
    Option<"db", "db", "std::string", /*default=*/"\"\"",
           "Tuning database (SQLite file); created when measuring">,
    Option<"device", "device", "std::string", /*default=*/"\"auto\"",
           "auto: measure when a device is available; none: never measure">,
    Option<"seed", "seed", "uint64_t", /*default=*/"0",
           "Seed of the search and of zero-shot sampling">,
    Option<"model", "model", "std::string", /*default=*/"\"\"",
           "Policy model (XGBoost JSON saved by hkg-tune train)">,
    Option<"confirmFinalists", "confirm-finalists", "unsigned",
           /*default=*/"3",
           "Fastest candidates re-measured with the default after the "
           "search (0: no confirmation)">,
    Option<"confirmRounds", "confirm-rounds", "unsigned", /*default=*/"3",
           "Re-measurements of each finalist; the winner has the lowest "
           "median of them (0: the search's fastest candidate wins)">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // HKG_TUNER_PASSES_TD
