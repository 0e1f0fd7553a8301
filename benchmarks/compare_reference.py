"""Trident's matmul and attention rows beside Triton's, cuBLAS's and torch SDPA's, from
one device call, as one Markdown table (the format of docs/status.md's tensor-core notes):

    python3 benchmarks/compare_reference.py TRIDENT.json TRITON.json [--device cuda:0]

TRIDENT.json is `trident-bench --kernels dots --json` (or its printed log, when it ran
out of time before writing the JSON: the rows it finished), TRITON.json is
`benchmarks/triton_reference.py --json` (whose rows name the trident-bench row they
match). Numbers are TFLOP/s (TOP/s for int8); a ratio of at least 1 is bold. Rows
that only one side has are listed too. Needs only the Python standard library.
"""

import argparse
import json
import re
import sys


def vendor_key(kernel):
    """The trident-bench row whose cuBLAS / SDPA number a row is set beside: the same
    work without the kernel variant, the fused activation or the warp count."""
    for part in (" descriptor", " persistent", " +leaky"):
        kernel = kernel.replace(part, "")
    return re.sub(r" w\d+$", "", kernel)


def read_trident(path, device):
    """trident-bench's rows: its JSON, or the lines it prints per dot row."""
    with open(path) as f:
        text = f.read()
    try:
        return json.loads(text)["rows"]
    except ValueError:
        pass
    rows, current = [], None
    for line in text.splitlines():
        device_line = re.match(r"^([a-z]+:\d+): ", line)  # "cuda:0: NVIDIA H200 (cuda:sm_90)"
        if device_line:
            current = device_line[1]
            continue
        m = re.match(r"^  (.*\S)\s+(\S+)\s+(\d+\.\d+) ms\s+(\d+\.\d+) TFLOP/s  (.*)$", line)
        if m:
            rows.append({"kernel": m[1], "size": m[2], "device": current or device, "ms": float(m[3]),
                         "tflops": float(m[4]), "check": m[5]})
    return rows


def ratio(a, b):
    if not a or not b:
        return ""
    r = a / b
    return f"**{r:.2f}**" if r >= 1 else f"{r:.2f}"


def number(x):
    return f"{x:.1f}" if x else ""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trident")
    parser.add_argument("triton")
    parser.add_argument("--device", default="cuda:0", help="trident-bench's device whose rows to show")
    args = parser.parse_args()
    ours = read_trident(args.trident, args.device)
    with open(args.triton) as f:
        ref = json.load(f)

    triton, vendor = {}, {}
    for r in ref["rows"]:
        if "bench_kernel" not in r or "tflops" not in r:
            continue
        key = (r["bench_kernel"], r["bench_size"])
        (triton if r.get("source", "triton") == "triton" else vendor)[key] = r

    rows = [r for r in ours if r["device"] == args.device and r["kernel"].startswith(("matmul", "attention"))]
    if not rows:
        sys.exit(f"compare_reference: no matmul or attention row of {args.device} in {args.trident}")
    print(f"{ref.get('device', '?')}; Triton {ref.get('triton', '?')}; trident-bench on {args.device}. TFLOP/s.\n")
    print("| kernel | size | Trident | Triton | cuBLAS / SDPA | Trident / Triton | Trident / cuBLAS, SDPA | check |")
    print("|---|---|---|---|---|---|---|---|")
    seen = set()
    for r in rows:
        key = (r["kernel"], r["size"])
        seen.add(key)
        t = triton.get(key, {}).get("tflops")
        v = vendor.get((vendor_key(r["kernel"]), r["size"]), {}).get("tflops")
        ours_tf = r.get("tflops") or 0
        check = r.get("check", "")
        if len(check) > 70:
            check = check[:67] + "..."
        print(f"| {r['kernel']} | {r['size']} | {number(ours_tf)} | {number(t)} | {number(v)} | {ratio(ours_tf, t)} | "
              f"{ratio(ours_tf, v)} | {check} |")
    missing = [key for key in triton if key not in seen]
    for kernel, size in missing:
        v = vendor.get((vendor_key(kernel), size), {}).get("tflops")
        print(f"| {kernel} | {size} | (no row) | {number(triton[(kernel, size)]['tflops'])} | {number(v)} | | | |")
    # Vendor numbers with no Triton or Trident row beside them (a Triton failure, a row left out).
    covered = {(vendor_key(kernel), size) for kernel, size in seen | set(triton)}
    for key, r in vendor.items():
        if key not in covered:
            print(f"| {key[0]} ({r['source']}) | {key[1]} | | | {number(r['tflops'])} | | | |")


if __name__ == "__main__":
    main()
