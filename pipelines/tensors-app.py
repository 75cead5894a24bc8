#!/usr/bin/env python3
"""An application that embeds cudatranspose from Python: batches of NHWC
float32 images made with numpy go in through appsrc as NNStreamer tensors,
come back NCHW through appsink, and each is checked against numpy's own
transpose.

    GST_PLUGIN_PATH=$PWD/build/gst pipelines/tensors-app.py [BATCHES]

The shape of a GStreamer application: a pipeline from Gst.parse_launch, a
GLib main loop, a bus watch that ends the loop on end-of-stream or an error,
appsrc's need-data callback feeding it and appsink's new-sample callback
taking the results; a timeout ends a run that never reaches end-of-stream.

Tensor caps for an NHWC batch: NNStreamer writes sizes innermost first, so
N x H x W x C is dimensions=C:W:H:N; permutation=1:2:0:3 (output size i is
input size perm[i]) makes it W:H:C:N, which is NCHW. With a GPU the
transpose runs there; without one kernel=auto runs it on the CPU and warns
why (the bus watch prints the warning).

Exit status: 0 when every batch checks, 1 otherwise, 77 (with the reason)
where PyGObject, GStreamer's introspection data, numpy or the element is
missing (the element only when GST_PLUGIN_PATH is unset: a path that names
a folder without the plugin is an error).
"""
import os
import sys

try:
    import gi

    gi.require_version("Gst", "1.0")
    gi.require_version("GstApp", "1.0")
    from gi.repository import GLib, Gst, GstApp  # noqa: F401 (app signals)
    import numpy as np
except (ImportError, ValueError) as e:
    print(f"SKIP: {e} (Debian: apt-get install python3-gi python3-numpy "
          "gir1.2-gst-plugins-base-1.0)")
    sys.exit(77)

N, H, W, C = 2, 5, 7, 3        # odd sizes: nothing lines up by accident
IN_DIMS, OUT_DIMS = f"{C}:{W}:{H}:{N}", f"{W}:{H}:{C}:{N}"
TENSORS = ("other/tensors,format=static,num_tensors=1,framerate=30/1,"
           "types=(string)float32,dimensions=(string)")
TIMEOUT_S = 60                 # far more than 8 small batches need on a CPU


class App:
    def __init__(self, batches):
        self.batches = batches
        self.rng = np.random.default_rng()
        self.pushed = []        # the arrays sent, in order: the reference
        self.checked = 0
        self.wrong = 0
        self.out_copied = None  # how the output was read (see on_new_sample)
        self.failed = None      # why the run failed, or None
        self.loop = GLib.MainLoop()
        # appsink's caps say what must come out: other caps fail to
        # negotiate, an error on the bus, before any batch is checked.
        self.pipeline = Gst.parse_launch(
            f'appsrc name=src format=time caps="{TENSORS}{IN_DIMS}" '
            "! cudatranspose name=t permutation=1:2:0:3 "
            "! appsink name=sink emit-signals=true sync=false "
            f'caps="{TENSORS}{OUT_DIMS}"')
        self.pipeline.get_by_name("src").connect("need-data",
                                                 self.on_need_data)
        self.pipeline.get_by_name("sink").connect("new-sample",
                                                  self.on_new_sample)
        bus = self.pipeline.get_bus()
        bus.add_signal_watch()
        bus.connect("message", self.on_message)

    def fail(self, why):
        if self.failed is None:
            self.failed = why
        self.loop.quit()

    def on_need_data(self, src, _length):
        """appsrc's streaming thread: a batch a call, then end-of-stream."""
        i = len(self.pushed)
        if i == self.batches:
            src.emit("end-of-stream")
            return
        nhwc = self.rng.standard_normal((N, H, W, C), dtype=np.float32)
        self.pushed.append(nhwc)
        # Two copies on the way in: tobytes() copies the array into a Python
        # bytes, and PyGObject hands new_wrapped its own copy of those bytes
        # (the buffer frees it). From Python a GstBuffer cannot borrow
        # numpy's memory.
        buf = Gst.Buffer.new_wrapped(nhwc.tobytes())
        buf.pts = i * Gst.SECOND // 30
        buf.duration = Gst.SECOND // 30
        src.emit("push-buffer", buf)

    def on_new_sample(self, sink):
        """The streaming thread: checks one batch against numpy."""
        sample = sink.emit("pull-sample")
        i = self.checked
        dims = sample.get_caps().get_structure(0).get_value("dimensions")
        if dims != OUT_DIMS:
            print(f"batch {i}: dimensions {dims}, not {OUT_DIMS}")
            self.wrong += 1
        buf = sample.get_buffer()
        ok, info = buf.map(Gst.MapFlags.READ)
        if not ok:
            print(f"batch {i}: the output buffer does not map")
            return Gst.FlowReturn.ERROR
        try:
            # PyGObject 3.42 alone (Debian 12) gives info.data as bytes, a
            # copy of the mapped memory; gst-python's overrides
            # (python3-gst-1.0) give a memoryview of it, no copy.
            # np.frombuffer, reshape and transpose are views either way; the
            # comparison ends before unmap, so a view is never used after it.
            self.out_copied = not isinstance(info.data, memoryview)
            nchw = np.frombuffer(info.data, dtype=np.float32)
            if i >= len(self.pushed) or nchw.size != N * C * H * W:
                print(f"batch {i}: {nchw.size} floats, not {N * C * H * W}")
                self.wrong += 1
            elif not np.array_equal(nchw.reshape(N, C, H, W),
                                    self.pushed[i].transpose(0, 3, 1, 2)):
                print(f"batch {i}: not NHWC to NCHW")
                self.wrong += 1
        finally:
            buf.unmap(info)
        self.checked += 1
        return Gst.FlowReturn.OK

    def on_message(self, _bus, msg):
        """The main loop's thread (add_signal_watch)."""
        if msg.type == Gst.MessageType.EOS:
            self.loop.quit()
        elif msg.type == Gst.MessageType.ERROR:
            err, debug = msg.parse_error()
            print(f"error from {msg.src.get_name()}: {err.message}\n"
                  f"  debug: {debug}", file=sys.stderr)
            self.fail("the pipeline posted an error")
        elif msg.type == Gst.MessageType.WARNING:
            err, _ = msg.parse_warning()
            print(f"warning from {msg.src.get_name()}: {err.message}")

    def on_timeout(self):
        self.fail(f"no end-of-stream after {TIMEOUT_S} s")
        return GLib.SOURCE_REMOVE

    def run(self):
        GLib.timeout_add_seconds(TIMEOUT_S, self.on_timeout)
        if self.pipeline.set_state(Gst.State.PLAYING) == \
                Gst.StateChangeReturn.FAILURE:
            # the bus watch prints the error once the loop runs
            GLib.idle_add(self.fail, "the pipeline did not start")
        self.loop.run()
        kernel = self.pipeline.get_by_name("t").get_property("active-kernel")
        self.pipeline.set_state(Gst.State.NULL)
        self.pipeline.get_bus().remove_signal_watch()
        if self.failed is None and (self.checked != self.batches or
                                    self.wrong):
            self.failed = (f"{self.checked} of {self.batches} batches came "
                           f"out, {self.wrong} wrong")
        if self.failed is not None:
            print(f"FAIL: {self.failed}", file=sys.stderr)
            return 1
        how = {None: "", True: "; output read through a copy",
               False: "; output read through a view"}[self.out_copied]
        print(f"{self.batches} batches of NHWC {N}x{H}x{W}x{C} float32 made "
              f"NCHW and checked against numpy (path {kernel.value_nick}"
              f"{how})")
        return 0


def main():
    batches = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    Gst.init(None)
    if Gst.ElementFactory.find("cudatranspose") is None:
        path = os.environ.get("GST_PLUGIN_PATH_1_0",
                              os.environ.get("GST_PLUGIN_PATH"))
        if path:
            print(f"error: no cudatranspose element in GST_PLUGIN_PATH "
                  f"({path}): is the plugin built there?", file=sys.stderr)
            return 1
        print("SKIP: no cudatranspose element: install it, or set "
              "GST_PLUGIN_PATH to the build's gst folder")
        return 77
    return App(batches).run()


if __name__ == "__main__":
    sys.exit(main())
