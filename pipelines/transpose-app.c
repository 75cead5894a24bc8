/* An application that embeds cudatranspose: it makes grey frames, hands
 * them to the pipeline through appsrc, takes them back transposed through
 * appsink, and checks each one against its own transpose.
 *
 *   build/pipelines/transpose-app [FRAMES]
 *
 * What it shows:
 * - the pipeline from a launch line, with the elements found by name;
 * - a bus watch: warnings are printed (without a GPU, kernel=auto runs on
 *   the CPU and its warning says why), an error stops the main loop and
 *   the program exits 1, EOS ends it;
 * - frames in and out in the main loop: appsrc's "need-data" pushes the
 *   next frame, appsink's "new-sample" takes each result. cudatranspose
 *   holds one frame back between host memory in and out (two frames in
 *   flight): EOS pushes the last one out.
 *
 * Frames of 64x48 GRAY8: rows of 64 and 48 bytes, both multiples of 4, so
 * GStreamer's default strides are the widths and the frames are packed.
 */
#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>

#include <stdlib.h>
#include <string.h>

#define WIDTH 64
#define HEIGHT 48

typedef struct
{
  GMainLoop *loop;
  guint frames;                 /* to push */
  guint pushed, checked;
  gboolean failed;
} App;

/* Frame @n's byte at (@x, @y): anything that differs between pixels and
 * frames. */
static guint8
pixel (guint n, guint x, guint y)
{
  guint32 v = (n + 1) * 2654435761u ^ (y * WIDTH + x) * 40503u;

  return (guint8) (v >> 13);
}

/* appsrc wants data: the next frame, or EOS after the last. */
static void
need_data (GstAppSrc * src, guint length, gpointer user_data)
{
  App *app = user_data;
  GstBuffer *buf;
  GstMapInfo map;
  guint x, y;

  if (app->pushed == app->frames) {
    gst_app_src_end_of_stream (src);
    return;
  }
  buf = gst_buffer_new_allocate (NULL, WIDTH * HEIGHT, NULL);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (y = 0; y < HEIGHT; y++)
    for (x = 0; x < WIDTH; x++)
      map.data[y * WIDTH + x] = pixel (app->pushed, x, y);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (app->pushed, GST_SECOND, 30);
  GST_BUFFER_DURATION (buf) = GST_SECOND / 30;
  app->pushed++;
  /* (the source takes the buffer; a flow other than OK ends the stream,
   * and the bus says why) */
  gst_app_src_push_buffer (src, buf);
}

/* appsink has a result: output row x holds input column x. */
static GstFlowReturn
new_sample (GstAppSink * sink, gpointer user_data)
{
  App *app = user_data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buf;
  GstMapInfo map;
  guint n = app->checked, x, y;

  if (!sample)
    return GST_FLOW_ERROR;
  buf = gst_sample_get_buffer (sample);
  if (!gst_buffer_map (buf, &map, GST_MAP_READ)) {
    gst_sample_unref (sample);
    return GST_FLOW_ERROR;
  }
  for (x = 0; x < WIDTH && !app->failed; x++) {
    for (y = 0; y < HEIGHT; y++) {
      if (map.data[x * HEIGHT + y] != pixel (n, x, y)) {
        g_printerr ("frame %u: output (%u, %u) is not input (%u, %u)\n", n,
            y, x, x, y);
        app->failed = TRUE;
        break;
      }
    }
  }
  gst_buffer_unmap (buf, &map);
  gst_sample_unref (sample);
  app->checked++;
  return app->failed ? GST_FLOW_ERROR : GST_FLOW_OK;
}

/* The bus watch, in the main loop's thread. */
static gboolean
on_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  App *app = user_data;
  GError *err = NULL;
  gchar *debug = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, &debug);
      g_print ("warning from %s: %s\n", GST_OBJECT_NAME (msg->src),
          err->message);
      break;
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &debug);
      g_printerr ("error from %s: %s\n(%s)\n", GST_OBJECT_NAME (msg->src),
          err->message, debug ? debug : "no details");
      app->failed = TRUE;
      g_main_loop_quit (app->loop);
      break;
    case GST_MESSAGE_EOS:
      g_main_loop_quit (app->loop);
      break;
    default:
      break;
  }
  g_clear_error (&err);
  g_free (debug);
  return G_SOURCE_CONTINUE;
}

/* The nick of @transpose's active-kernel (an enum): where the last frame
 * ran, "cpu" without a GPU. */
static const gchar *
active_kernel (GstElement * transpose)
{
  GParamSpec *spec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (transpose), "active-kernel");
  GEnumValue *v;
  gint value = 0;

  g_object_get (transpose, "active-kernel", &value, NULL);
  v = g_enum_get_value (G_PARAM_SPEC_ENUM (spec)->enum_class, value);
  return v ? v->value_nick : "unknown";
}

int
main (int argc, char **argv)
{
  App app = { NULL, 30, 0, 0, FALSE };
  GstElement *pipeline, *src, *sink, *transpose;
  GstAppSrcCallbacks src_cb;
  GstAppSinkCallbacks sink_cb;
  GError *err = NULL;
  GstBus *bus;
  const gchar *path;
  guint watch;

  gst_init (&argc, &argv);
  if (argc > 1)
    app.frames = (guint) strtoul (argv[1], NULL, 10);

  pipeline = gst_parse_launch ("appsrc name=src format=time "
      "caps=video/x-raw,format=GRAY8,width=64,height=48,framerate=30/1 "
      "! cudatranspose name=t ! appsink name=sink sync=false", &err);
  /* (an element that is not found still gives a partial pipeline, with
   * the error set: both must be checked) */
  if (!pipeline || err) {
    g_printerr ("no pipeline: %s (is the plugin on GST_PLUGIN_PATH?)\n",
        err ? err->message : "unknown error");
    g_clear_error (&err);
    gst_clear_object (&pipeline);
    return 1;
  }
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  transpose = gst_bin_get_by_name (GST_BIN (pipeline), "t");
  memset (&src_cb, 0, sizeof (src_cb));
  src_cb.need_data = need_data;
  gst_app_src_set_callbacks (GST_APP_SRC (src), &src_cb, &app, NULL);
  memset (&sink_cb, 0, sizeof (sink_cb));
  sink_cb.new_sample = new_sample;
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &sink_cb, &app, NULL);

  app.loop = g_main_loop_new (NULL, FALSE);
  bus = gst_element_get_bus (pipeline);
  watch = gst_bus_add_watch (bus, on_message, &app);
  gst_object_unref (bus);

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    g_printerr ("the pipeline would not start (the bus said why)\n");
    app.failed = TRUE;
  } else {
    g_main_loop_run (app.loop);
  }

  path = active_kernel (transpose);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  g_source_remove (watch);
  if (!app.failed && app.checked != app.frames) {
    g_printerr ("%u frames in, %u out\n", app.frames, app.checked);
    app.failed = TRUE;
  }
  if (!app.failed)
    g_print ("%u frames of %dx%d transposed and checked (path %s)\n",
        app.checked, WIDTH, HEIGHT, path);

  gst_object_unref (transpose);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  g_main_loop_unref (app.loop);
  return app.failed ? 1 : 0;
}
