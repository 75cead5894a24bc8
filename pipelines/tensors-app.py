#!/usr/bin/env python3
"""An application that embeds cudatranspose from Python: batches of NHWC
float32 images made with numpy go in through appsrc as NNStreamer tensors,
come back NCHW through appsink, and each is checked against numpy's own
transpose.

    GST_PLUGIN_PATH=$PWD/build/gst pipelines/tensors-app.py [BATCHES]

What it shows:
- tensor caps for an NHWC batch: NNStreamer writes sizes innermost first,
  so N x H x W x C is dimensions=C:W:H:N; permutation=1:2:0:3 (output
  size i is input size perm[i]) makes it W:H:C:N, which is NCHW;
- numpy arrays into Gst.Buffer and back, without a copy on the way in;
- the bus: warnings printed (without a GPU, kernel=auto runs on the CPU and
  says why), an error ends the program with status 1.
cudatranspose holds one buffer back between host memory in and out (two
in flight): end-of-stream pushes the last one out.

Exit status: 0 when every batch checks, 1 otherwise, 77 (with a reason)
where PyGObject, GStreamer's introspection data or numpy is missing.
"""
import sys

try:
    import gi

    gi.require_version("Gst", "1.0")
    gi.require_version("GstApp", "1.0")
    from gi.repository import Gst, GstApp  # noqa: F401 (GstApp: signals)
    import numpy as np
except (ImportError, ValueError) as e:
    print(f"SKIP: {e} (Debian: apt-get install python3-gi python3-numpy "
          "gir1.2-gst-plugins-base-1.0)")
    sys.exit(77)

N, H, W, C = 2, 5, 7, 3        # odd sizes: nothing lines up by accident
CAPS = ("other/tensors,format=static,num_tensors=1,framerate=30/1,"
        f"dimensions=(string){C}:{W}:{H}:{N},types=(string)float32")


def check_bus(bus):
    """Prints warnings; returns the first error's text, or None."""
    while True:
        msg = bus.pop_filtered(Gst.MessageType.WARNING |
                               Gst.MessageType.ERROR)
        if msg is None:
            return None
        if msg.type == Gst.MessageType.WARNING:
            err, _ = msg.parse_warning()
            print(f"warning from {msg.src.get_name()}: {err.message}")
        else:
            err, debug = msg.parse_error()
            return f"{err.message} ({debug})"


def main():
    batches = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    Gst.init(None)
    if Gst.ElementFactory.find("cudatranspose") is None:
        print("error: no cudatranspose element: set GST_PLUGIN_PATH to the "
              "build's gst folder", file=sys.stderr)
        return 1
    pipeline = Gst.parse_launch(
        f'appsrc name=src format=time caps="{CAPS}" '
        "! cudatranspose name=t permutation=1:2:0:3 "
        "! appsink name=sink sync=false")
    src = pipeline.get_by_name("src")
    sink = pipeline.get_by_name("sink")
    bus = pipeline.get_bus()
    rng = np.random.default_rng()
    images = [rng.standard_normal((N, H, W, C), dtype=np.float32)
              for _ in range(batches)]

    if pipeline.set_state(Gst.State.PLAYING) == Gst.StateChangeReturn.FAILURE:
        print(f"error: {check_bus(bus) or 'the pipeline did not start'}",
              file=sys.stderr)
        pipeline.set_state(Gst.State.NULL)
        return 1
    for i, nhwc in enumerate(images):
        buf = Gst.Buffer.new_wrapped(nhwc.tobytes())
        buf.pts = i * Gst.SECOND // 30
        buf.duration = Gst.SECOND // 30
        if src.emit("push-buffer", buf) != Gst.FlowReturn.OK:
            break
    src.emit("end-of-stream")

    checked, failed = 0, False
    while True:
        sample = sink.emit("try-pull-sample", 10 * Gst.SECOND)
        if sample is None:      # end of stream (or an error: the bus says)
            break
        dims = sample.get_caps().get_structure(0).get_value("dimensions")
        if dims != f"{W}:{H}:{C}:{N}":
            print(f"batch {checked}: dimensions {dims}, not {W}:{H}:{C}:{N}")
            failed = True
        out = sample.get_buffer()
        nchw = np.frombuffer(out.extract_dup(0, out.get_size()),
                             dtype=np.float32).reshape(N, C, H, W)
        if not np.array_equal(nchw, images[checked].transpose(0, 3, 1, 2)):
            print(f"batch {checked}: not NHWC to NCHW")
            failed = True
        checked += 1
    path = pipeline.get_by_name("t").get_property("active-kernel")
    error = check_bus(bus)
    pipeline.set_state(Gst.State.NULL)
    if error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if checked != batches or failed:
        print(f"{checked} of {batches} batches came out, "
              f"{'some wrong' if failed else 'all right'}")
        return 1
    print(f"{batches} batches of NHWC {N}x{H}x{W}x{C} float32 made NCHW and "
          f"checked against numpy (path {path.value_nick})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
