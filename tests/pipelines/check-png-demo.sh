#!/bin/sh
# Runs pipelines/png-demo.sh and checks that the PNGs exist with their width
# and height swapped (read from the IHDR chunk, bytes 16 to 23).
set -eu
script=$1
out=$2
rm -rf "$out"
"$script" "$out" 250 98
dims() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8 }'; }
in=$(dims "$out/input.png")
res=$(dims "$out/output.png")
echo "input $in, output $res"
[ "$in" = "250x98" ] || { echo "input.png is $in, not 250x98"; exit 1; }
[ "$res" = "98x250" ] || { echo "output.png is $res, not 98x250"; exit 1; }
