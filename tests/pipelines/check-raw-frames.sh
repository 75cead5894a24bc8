#!/bin/sh
# Runs pipelines/raw-frames.sh and checks the file holds every frame.
set -eu
script=$1
file=$2
rm -f "$file"
"$script" "$file" 3
size=$(wc -c < "$file")
want=$((3 * 1080 * 1920 * 3 / 2))
[ "$size" -eq "$want" ] || { echo "$file is $size bytes, not $want"; exit 1; }
