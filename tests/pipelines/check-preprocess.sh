#!/bin/sh
# Runs pipelines/preprocess.sh and checks each tensor against the same frames
# as packed RGB, normalized (chw-frames.sh).
exec sh "$(dirname "$0")/chw-frames.sh" "$1" "$2" 224 224 normalized
