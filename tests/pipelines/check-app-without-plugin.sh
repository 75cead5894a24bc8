#!/bin/sh
# The C example where the plugin is not found (the likeliest first
# mistake): it must exit 1 with its hint, not crash. No plugin is found: the
# plugin paths are empty and the registry is a new one.
set -u
app=$1
dir=$2
mkdir -p "$dir/empty"
out=$(GST_PLUGIN_PATH_1_0= GST_PLUGIN_PATH= \
  GST_PLUGIN_SYSTEM_PATH_1_0="$dir/empty" GST_PLUGIN_SYSTEM_PATH="$dir/empty" \
  GST_REGISTRY_1_0="$dir/registry-empty.bin" "$app" 2>&1)
rc=$?
[ "$rc" -eq 1 ] || { echo "exit status $rc, not 1: $out"; exit 1; }
case "$out" in
  *GST_PLUGIN_PATH*) echo "$out" ;;
  *) echo "no hint in: $out"; exit 1 ;;
esac
