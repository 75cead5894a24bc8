#!/bin/bash
# Nsight Compute counters behind docs/kernels.md: shared-memory bank
# conflicts and wavefronts, global requests and sectors, DRAM bytes, for the
# seeds' tiles and the wide variants on one plane each.
#
#   bench/profile-kernels.sh BUILD_DIR [OUTDIR]
#
# Each job is one checked run of one variant (bench-kernels --one) under
#   ncu --clock-control none -k regex:'k_tiled|k_wide|k_stream|k_tile' --metrics ... --csv
# Prints a table (one row per job) and keeps the CSVs in OUTDIR.
set -u
b=${1:?usage: bench/profile-kernels.sh BUILD_DIR [OUTDIR]}
out=${2:-/tmp/ncu}
mkdir -p "$out"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -n 1)
if [ -z "$ncu" ]; then
  echo "ncu not found"
  exit 77
fi
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
jobs=(
  "tiled 8192 8192 4" "tiled-padded 8192 8192 4" "tiled-64 8192 8192 4"
  "wide 8192 8192 4" "wide-padded 8192 8192 4" "wide-swizzle 8192 8192 4"
  "tiled 16384 16384 1" "tiled-padded 16384 16384 1"
  "wide 16384 16384 1" "wide-padded 16384 16384 1" "wide-swizzle 16384 16384 1"
  "wide 8192 8192 3" "wide-swizzle 8192 8192 3"
  "wide-swizzle 8000 6000 1" "wide-swizzle 8000 6000 2" "wide-swizzle 8000 6000 4"
)
for job in "${jobs[@]}"; do
  name=${job// /-}
  "$ncu" --clock-control none -k regex:'k_tiled|k_wide|k_stream|k_tile' --metrics "$metrics" \
    --print-units base --csv "$b/bench/bench-kernels" --one $job > "$out/$name.csv" 2> "$out/$name.err" ||
    echo "ncu failed on $job: $(tail -n 2 "$out/$name.err")"
done
python3 - "$out" "${jobs[@]}" <<'PY'
import csv, sys
out, jobs = sys.argv[1], sys.argv[2:]
cols = [("smem ld conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
        ("smem st conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
        ("smem ld wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
        ("smem st wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
        ("gld sectors/req", None), ("gst sectors/req", None),
        ("DRAM MB rd", "dram__bytes_read.sum"), ("DRAM MB wr", "dram__bytes_write.sum"),
        ("us", "gpu__time_duration.sum")]
print("| job | " + " | ".join(c[0] for c in cols) + " |")
print("|---" * (len(cols) + 1) + "|")
for job in jobs:
    vals = {}
    try:
        lines = open(f"{out}/{job.replace(' ', '-')}.csv").read().splitlines()
        start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
        for r in csv.DictReader(lines[start:]):
            v = r["Metric Value"].replace(",", "")
            unit = r["Metric Unit"]
            x = float(v)
            if unit == "byte": x /= 1e6
            elif unit == "Kbyte": x /= 1e3
            elif unit == "Gbyte": x *= 1e3
            elif unit in ("nsecond", "ns"): x /= 1e3
            elif unit in ("msecond", "ms"): x *= 1e3
            vals[r["Metric Name"]] = vals.get(r["Metric Name"], 0) + x
    except (OSError, StopIteration, ValueError, KeyError) as e:
        print(f"| {job} | no data ({e}) |")
        continue
    def ratio(s, q):
        s, q = vals.get(s), vals.get(q)
        return f"{s / q:.1f}" if s and q else "-"
    cells = []
    for name, m in cols:
        if name == "gld sectors/req":
            cells.append(ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                               "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"))
        elif name == "gst sectors/req":
            cells.append(ratio("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                               "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"))
        else:
            x = vals.get(m)
            cells.append("-" if x is None else (f"{x:.0f}" if x >= 100 else f"{x:.1f}"))
    print(f"| {job} | " + " | ".join(cells) + " |")
PY
