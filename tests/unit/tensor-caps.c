/* The tensor caps module (gst/gstcudatransposetensor.c) on its own, on the
 * CPU: NNStreamer's caps read into sizes, overflow and malformed fields
 * refused with a sentence, permutations parsed, dimensions rearranged.
 * Every expected value is worked out here, from random sizes, types and
 * counts (the seed is printed; CT_CHECK_SEED repeats it). */
#include "transpose-check.h"
#include "gstcudatransposetensor.h"

#include <string.h>

static guint
rand_range (guint lo, guint hi)
{
  return lo + ct_check_random () % (hi - lo + 1);
}

/* Parses @caps_str's one structure; @why gets the reason on failure. */
static gboolean
parse (const gchar * caps_str, CtTensorInfo * t, guint * n, gchar ** why)
{
  GstStructure *s = gst_structure_from_string (caps_str, NULL);
  gboolean ok;

  fail_unless (s != NULL, "%s", caps_str);
  ok = ct_tensor_caps_parse (s, t, n, why);
  gst_structure_free (s);
  return ok;
}

/* Must be refused, with a reason that holds @says. */
static void
assert_refused (const gchar * caps_str, const gchar * says)
{
  CtTensorInfo t[CT_TENSOR_COUNT_LIMIT];
  gchar *why = NULL;
  guint n = 0;

  fail_if (parse (caps_str, t, &n, &why), "%s was taken", caps_str);
  fail_unless (why != NULL, "%s: no reason given", caps_str);
  fail_unless (strstr (why, says) != NULL, "%s: \"%s\" does not say \"%s\"",
      caps_str, why, says);
  g_free (why);
}

/* Random tensors of rank 1 to 6 (the sizes past the fourth often 1), of
 * random types, 1 to 16 of them: every field read back, and the planes
 * and bytes multiplied out here. */
GST_START_TEST (test_parse_random)
{
  guint round;

  for (round = 0; round < 2000; round++) {
    guint n = rand_range (1, CT_TENSOR_COUNT_LIMIT), i, k, got_n = 0;
    guint rank[CT_TENSOR_COUNT_LIMIT], type[CT_TENSOR_COUNT_LIMIT];
    guint64 dims[CT_TENSOR_COUNT_LIMIT][6];
    CtTensorInfo t[CT_TENSOR_COUNT_LIMIT];
    GString *d = g_string_new (NULL), *ty = g_string_new (NULL);
    gboolean single = n == 1 && rand_range (0, 1);
    gchar *caps_str, *why = NULL;

    for (i = 0; i < n; i++) {
      rank[i] = rand_range (1, 6);
      type[i] = rand_range (0, ct_check_n_tensor_types - 1);
      for (k = 0; k < rank[i]; k++) {
        dims[i][k] = k < 4 || rand_range (0, 1) ? rand_range (1, 40) : 1;
        g_string_append_printf (d, "%s%" G_GUINT64_FORMAT, k ? ":" : "",
            dims[i][k]);
      }
      g_string_append_printf (ty, "%s%s", ct_check_tensor_types[type[i]],
          i + 1 < n ? "," : "");
      /* NNStreamer reads '.' between tensors too */
      if (i + 1 < n)
        g_string_append (d, rand_range (0, 3) ? "," : ".");
    }
    if (single)
      caps_str = g_strdup_printf ("other/tensor, dimension=(string)%s, "
          "type=(string)%s, framerate=(fraction)30/1", d->str, ty->str);
    else
      caps_str = g_strdup_printf ("other/tensors, format=(string)static, "
          "num_tensors=(int)%u, dimensions=(string)\"%s\", types=(string)"
          "\"%s\", framerate=(fraction)30/1", n, d->str, ty->str);

    fail_unless (parse (caps_str, t, &got_n, &why), "%s: %s", caps_str, why);
    fail_unless_equals_int (got_n, n);
    for (i = 0; i < n; i++) {
      const gchar *name = ct_check_tensor_types[type[i]];
      guint es = ct_check_tensor_type_size (name);
      guint64 planes = 1, bytes;

      fail_unless_equals_int (t[i].rank, rank[i]);
      fail_unless_equals_string (t[i].type, name);
      fail_unless_equals_int (t[i].elem_size, es);
      for (k = 0; k < rank[i]; k++) {
        fail_unless_equals_uint64 (t[i].dims[k], dims[i][k]);
        if (k >= 2)
          planes *= dims[i][k];
      }
      bytes = planes * es * dims[i][0] * (rank[i] > 1 ? dims[i][1] : 1);
      fail_unless_equals_uint64 (ct_tensor_planes (&t[i]), planes);
      fail_unless_equals_uint64 (ct_tensor_bytes (&t[i]), bytes);
    }
    g_free (caps_str);
    g_string_free (d, TRUE);
    g_string_free (ty, TRUE);
  }
}

GST_END_TEST;

/* Sizes whose product passes what a buffer can hold, alone or together,
 * wherever in the dimensions the overflow happens. */
GST_START_TEST (test_parse_too_large)
{
  guint round;

  /* from the issue: 769546 x 494770 x 48448661 wraps 64 bits to 4 */
  assert_refused ("other/tensors, format=static, num_tensors=1, "
      "dimensions=769546:494770:48448661:1, types=uint8", "too large");
  assert_refused ("other/tensors, format=static, num_tensors=1, "
      "dimensions=4:3:65536:65536:65536:65536, types=uint8", "too large");
  for (round = 0; round < 200; round++) {
    /* four sizes of 2^16 .. 2^32-1 multiply past 2^63 (G_MAXSSIZE) */
    guint64 d[4];
    gchar *s;
    guint k;

    for (k = 0; k < 4; k++)
      d[k] = rand_range (1u << 16, G_MAXUINT32);
    s = g_strdup_printf ("other/tensors, format=static, num_tensors=1, "
        "dimensions=%" G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ":%"
        G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT ", types=%s", d[0], d[1],
        d[2], d[3],
        ct_check_tensor_types[rand_range (0, ct_check_n_tensor_types - 1)]);
    assert_refused (s, "too large");
    g_free (s);
  }
  /* each one fits, together they do not: 2 x 2^62 bytes */
  assert_refused ("other/tensors, format=static, num_tensors=2, "
      "dimensions=\"65536:65536:65536:16384,65536:65536:65536:16384\", "
      "types=\"uint8,uint8\"", "together");
}

GST_END_TEST;

/* Malformed caps: refused, with a reason that points at the field. */
GST_START_TEST (test_parse_malformed)
{
  CtTensorInfo t[CT_TENSOR_COUNT_LIMIT];
  gchar *why = NULL;
  guint n = 0;

  assert_refused ("other/tensors, format=flexible, num_tensors=1, "
      "dimensions=3:4:1:1, types=uint8", "only format=static");
  assert_refused ("other/tensors, format=static, num_tensors=1, "
      "types=uint8", "dimensions and types");
  assert_refused ("other/tensor, dimension=(string)3:4", "dimension and type");
  assert_refused ("other/tensors, format=static, num_tensors=2, "
      "dimensions=3:4:1:1, types=uint8", "disagree");
  assert_refused ("other/tensors, format=static, num_tensors=2, "
      "dimensions=\"3:4,3:4\", types=uint8", "disagree");
  assert_refused ("other/tensors, format=static, num_tensors=1, "
      "dimensions=3:0:1:1, types=uint8", "size 1");
  assert_refused ("other/tensors, format=static, num_tensors=1, "
      "dimensions=3:x:1:1, types=uint8", "whole number");
  assert_refused ("other/tensors, format=static, num_tensors=1, "
      "dimensions=3::1, types=uint8", "whole number");
  assert_refused ("other/tensors, format=static, num_tensors=1, "
      "dimensions=(string)4294967296:1, types=uint8", "whole number");
  /* unquoted, two sizes are read as a GstFlagSet: say what to write */
  assert_refused ("other/tensors, format=static, num_tensors=1, "
      "dimensions=640:480, types=uint8", "dimensions=(string)640:480");
  assert_refused ("other/tensor, dimension=(string)640:480, type=(int)3",
      "field type was read as a gint");
  assert_refused ("other/tensors, format=static, num_tensors=1, "
      "dimensions=1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1:1, types=uint8",
      "1 to 16");
  assert_refused ("other/tensors, format=static, num_tensors=1, "
      "dimensions=(string)3:4, types=complex64", "not one of");
  {
    /* one more than the limit: refused naming it */
    GString *d = g_string_new (NULL), *ty = g_string_new (NULL);
    gchar *s;
    guint i;

    for (i = 0; i < CT_TENSOR_COUNT_LIMIT + 1; i++) {
      g_string_append_printf (d, "%s2:2", i ? "," : "");
      g_string_append_printf (ty, "%suint8", i ? "," : "");
    }
    s = g_strdup_printf ("other/tensors, format=static, num_tensors=%d, "
        "dimensions=\"%s\", types=\"%s\"", CT_TENSOR_COUNT_LIMIT + 1, d->str,
        ty->str);
    assert_refused (s, "more than the 256");
    g_free (s);
    g_string_free (d, TRUE);
    g_string_free (ty, TRUE);
  }
  /* the largest a size may be, and a type in capitals, are taken */
  fail_unless (parse ("other/tensors, format=static, num_tensors=1, "
          "dimensions=(string)4294967295:1, types=UINT8", t, &n, &why), "%s",
      why);
  fail_unless_equals_uint64 (t[0].dims[0], G_MAXUINT32);
  fail_unless_equals_string (t[0].type, "uint8");
}

GST_END_TEST;

/* All 24 orders of 0..3 are read as written; anything else is refused
 * with the text quoted. */
GST_START_TEST (test_permutation)
{
  static const gchar *bad[] = { "0:0:1:2", "abc", "5:1:2:3", "1:0", "",
    "0:1:2:3:0", "0:1:2:-3", "01:1:2:3", "0;1;2;3"
  };
  guint a, b, c, d, i, perm[4];
  gchar *why = NULL;

  for (a = 0; a < 4; a++)
    for (b = 0; b < 4; b++)
      for (c = 0; c < 4; c++)
        for (d = 0; d < 4; d++) {
          gchar *text = g_strdup_printf ("%u:%u:%u:%u", a, b, c, d);
          gboolean valid = a != b && a != c && a != d && b != c && b != d &&
              c != d;

          fail_unless_equals_int (ct_tensor_parse_permutation (text, perm,
                  &why), valid);
          if (valid) {
            fail_unless (perm[0] == a && perm[1] == b && perm[2] == c &&
                perm[3] == d, "%s", text);
          } else {
            fail_unless (strstr (why, text) != NULL, "%s: %s", text, why);
            g_clear_pointer (&why, g_free);
          }
          g_free (text);
        }
  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    fail_if (ct_tensor_parse_permutation (bad[i], perm, &why), "%s", bad[i]);
    fail_unless (why && strstr (why, "each of the dimensions"), "%s: %s",
        bad[i], why);
    g_clear_pointer (&why, g_free);
  }
  fail_if (ct_tensor_parse_permutation (NULL, perm, &why));
  g_free (why);
  /* spaces around the digits are allowed */
  fail_unless (ct_tensor_parse_permutation (" 1 : 2 : 0 : 3 ", perm, &why));
  fail_unless (perm[0] == 1 && perm[1] == 2 && perm[2] == 0 && perm[3] == 3);
}

GST_END_TEST;

/* The dimensions of @s's field, as a string. */
static const gchar *
dims_of (const GstStructure * s)
{
  return gst_structure_get_string (s, gst_structure_has_name (s,
          "other/tensor") ? "dimension" : "dimensions");
}

/* Rearranging: the transpose swaps the two innermost sizes (a rank-1 n
 * becomes 1:n); a permutation moves sizes as tensor_transform does,
 * keeping the rank, and its inverse offers the input back; tensors past
 * rank 4 are left for negotiation to refuse. Expected strings are built
 * here. */
GST_START_TEST (test_rearrange)
{
  GstStructure *s;
  guint round;

  s = gst_structure_from_string ("other/tensors, format=static, "
      "num_tensors=3, dimensions=\"3:640:480:1,7,5:6\", "
      "types=\"uint8,uint8,uint8\"", NULL);
  fail_unless (ct_tensor_caps_rearrange (s, NULL, FALSE));
  fail_unless_equals_string (dims_of (s), "640:3:480:1,1:7,6:5");
  gst_structure_free (s);

  s = gst_structure_from_string ("other/tensors, format=static, "
      "num_tensors=1, types=uint8", NULL);
  fail_unless (ct_tensor_caps_rearrange (s, NULL, FALSE),
      "caps without dimensions are left as they are");
  fail_if (gst_structure_has_field (s, "dimensions"));
  gst_structure_free (s);

  for (round = 0; round < 500; round++) {
    guint64 in[4], want[4];
    guint perm[4] = { 0, 1, 2, 3 }, i, rank = rand_range (1, 4), out_rank;
    gchar *text, *expect, *caps_str, *back;
    GString *t = g_string_new (NULL), *e = g_string_new (NULL);

    for (i = 3; i > 0; i--) {
      guint j = rand_range (0, i), tmp = perm[i];

      perm[i] = perm[j];
      perm[j] = tmp;
    }
    for (i = 0; i < 4; i++) {
      /* some sizes of 1, so that ranks are kept through them */
      in[i] = i < rank ? rand_range (1, 4) == 1 ? 1 : rand_range (2, 5000) : 1;
      if (i < rank)
        g_string_append_printf (t, "%s%" G_GUINT64_FORMAT, i ? ":" : "",
            in[i]);
    }
    /* the input's rank, or up to the last size past it that is not 1 */
    out_rank = rank;
    for (i = 0; i < 4; i++) {
      want[i] = in[perm[i]];
      if (want[i] != 1 && i + 1 > out_rank)
        out_rank = i + 1;
    }
    for (i = 0; i < out_rank; i++)
      g_string_append_printf (e, "%s%" G_GUINT64_FORMAT, i ? ":" : "",
          want[i]);
    text = g_string_free (t, FALSE);
    expect = g_string_free (e, FALSE);
    caps_str = g_strdup_printf ("other/tensor, dimension=(string)%s, "
        "type=(string)float32", text);
    s = gst_structure_from_string (caps_str, NULL);
    fail_unless (ct_tensor_caps_rearrange (s, perm, FALSE));
    fail_unless_equals_string (dims_of (s), expect);
    fail_unless (ct_tensor_caps_rearrange (s, perm, TRUE));
    /* back where it was: the input's own string among those offered */
    back = g_strdup_printf ("other/tensor, dimension=(string)%s, "
        "type=(string)float32", text);
    {
      GstCaps *mine = gst_caps_from_string (back);
      GstCaps *offered = gst_caps_new_full (gst_structure_copy (s), NULL);

      fail_unless (gst_caps_is_subset (mine, offered), "%s by %u:%u:%u:%u "
          "gives %s, undone %s", text, perm[0], perm[1], perm[2], perm[3],
          expect, gst_caps_to_string (offered));
      gst_caps_unref (mine);
      gst_caps_unref (offered);
    }
    gst_structure_free (s);
    g_free (back);
    g_free (caps_str);
    g_free (expect);
    g_free (text);
  }

  {
    guint perm[4] = { 1, 2, 0, 3 };

    /* rank 6 with trailing 1s: rank 6 kept; with a size past the fourth:
     * left alone; a size that is not a number: refused */
    s = gst_structure_from_string ("other/tensors, format=static, "
        "num_tensors=2, dimensions=\"3:4:5:1:1:1,3:4:5:1:2\", "
        "types=\"uint8,uint8\"", NULL);
    fail_unless (ct_tensor_caps_rearrange (s, perm, FALSE));
    fail_unless_equals_string (dims_of (s), "4:5:3:1:1:1,3:4:5:1:2");
    gst_structure_free (s);
    s = gst_structure_from_string ("other/tensor, dimension=3:x:1:1, "
        "type=uint8", NULL);
    fail_if (ct_tensor_caps_rearrange (s, perm, FALSE));
    gst_structure_free (s);
  }
}

GST_END_TEST;

/* The four sizes of a tensor of rank 4 or less, and of more when the
 * sizes past the fourth are 1. */
GST_START_TEST (test_dims4)
{
  CtTensorInfo t;
  guint64 d[4];
  guint round, i;

  for (round = 0; round < 500; round++) {
    memset (&t, 0, sizeof (t));
    t.rank = rand_range (1, CT_TENSOR_RANK_LIMIT);
    for (i = 0; i < t.rank; i++)
      t.dims[i] = i < 4 ? rand_range (1, 1000) : 1;
    /* now and then a size past the fourth that is not 1 */
    if (t.rank > 4 && rand_range (0, 1))
      t.dims[rand_range (4, t.rank - 1)] = rand_range (2, 9);
    {
      gboolean fits = TRUE;

      for (i = 4; i < t.rank; i++)
        fits = fits && t.dims[i] == 1;
      fail_unless_equals_int (ct_tensor_dims4 (&t, d), fits);
      if (fits)
        for (i = 0; i < 4; i++)
          fail_unless_equals_uint64 (d[i], i < t.rank ? t.dims[i] : 1);
    }
  }
}

GST_END_TEST;

static Suite *
tensor_caps_suite (void)
{
  Suite *s = suite_create ("tensor-caps");
  TCase *tc = tcase_create ("general");

  ct_check_seed ();
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_parse_random);
  tcase_add_test (tc, test_parse_too_large);
  tcase_add_test (tc, test_parse_malformed);
  tcase_add_test (tc, test_permutation);
  tcase_add_test (tc, test_rearrange);
  tcase_add_test (tc, test_dims4);
  return s;
}

GST_CHECK_MAIN (tensor_caps);
