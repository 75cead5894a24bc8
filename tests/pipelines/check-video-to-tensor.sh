#!/bin/sh
# Runs pipelines/video-to-tensor.sh and checks each tensor against the same
# frames as packed RGB (chw-frames.sh).
exec sh "$(dirname "$0")/chw-frames.sh" "$1" "$2" 640 480 uint8
