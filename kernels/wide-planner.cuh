/* cudatranspose: the planner of the wide variants and auto
 * (transpose-wide.cu): every choice of kernel, path, tile and stage, by
 * the tables kPaths and kAuto, as a function of the plane, the call and
 * the device alone (plan.h's CtPlanDevice), so that it runs, and is
 * tested, without a GPU. Internal to transpose-wide.cu, which includes it
 * once. */
#pragma once

#include "cudatranspose-kernels.h"
#include "plan.h"
#include "transpose-common.cuh"
#include "wide-tiles.cuh"

#include <stdint.h>

namespace {

using namespace ct_wide;
using ct::div_up;
using ct::kMaxGridX;

using SkinnyRows = Skinny<4, 64>;
using SkinnyCols = Skinny<64, 4>;

/* What the host needs to know of a tile configuration. */
struct Geometry
{
  unsigned int rows, cols;
  size_t smem;
  unsigned int align;           /* of pointers and strides, in bytes */
};

template <typename W>
Geometry
geometry (int stage)
{
  Geometry g;

  g.rows = W::ROWS;
  g.cols = W::COLS;
  g.align = W::C == 12 ? 4 : W::C;
  if (stage == STAGE_REGISTERS || stage == STAGE_SMALL)
    g.smem = 0;
  else if (stage == STAGE_SWIZZLE || stage == STAGE_STREAM ||
      stage == STAGE_TILE)
    g.smem = (size_t) W::STAGES * W::SLOTS_SWIZZLED * W::C;
  else
    g.smem = (size_t) W::SLOTS_PADDED * W::C;
  return g;
}

/* A skinny tile: 16-byte chunks, one slot each. */
template <typename S>
Geometry
skinny_geometry ()
{
  Geometry g = { S::ROWS, S::COLS, (size_t) S::SLOTS * 16, 16 };

  return g;
}

/* The tile of element size @es in @stage (STAGE_SMALL: the small one). */
Geometry
geometry_of (unsigned int es, int stage)
{
  const bool small = stage == STAGE_SMALL;

  if (es == 3 && (stage == STAGE_PADDED || stage == STAGE_SWIZZLE)) {
    Geometry g = { kRgbTile, kRgbTile, kRgbSmem, 16 };
    return g;
  }
  /* the tile kernel: 4-byte elements only; the skinny ones and the mid
   * one: bytes only (host: kPaths) */
  if (stage == STAGE_TILE)
    return geometry<Tile<4>> (stage);
  if (stage == STAGE_MID)
    return geometry<MidBytes> (STAGE_REGISTERS);
  if (stage == STAGE_LINES) {
    Geometry g = { kLinesTile, kLinesTile, kLinesSmem, 16 };
    return g;
  }
  if (stage == STAGE_STREAM_WORDS) {
    Geometry g = { StreamWords::ROWS, StreamWords::COLS, StreamWords::SMEM,
      4
    };
    return g;
  }
  if (stage == STAGE_SKINNY_ROWS)
    return skinny_geometry<SkinnyRows> ();
  if (stage == STAGE_SKINNY_COLS)
    return skinny_geometry<SkinnyCols> ();
  /* no stream for 3-byte elements (kPaths) */
  if (stage == STAGE_STREAM) {
    switch (es) {
      case 1:
        return geometry<Stream<1>> (stage);
      case 2:
        return geometry<Stream<2>> (stage);
      case 4:
        return geometry<Stream<4>> (stage);
      default:
        return geometry<Stream<8>> (stage);
    }
  }

  switch (es) {
    case 1:
      return small ? geometry<Small<1>> (stage) : geometry<Big<1>> (stage);
    case 2:
      return small ? geometry<Small<2>> (stage) : geometry<Big<2>> (stage);
    case 3:
      return small ? geometry<Small<3>> (stage) : geometry<Big<3>> (stage);
    case 4:
      return small ? geometry<Small<4>> (stage) : geometry<Big<4>> (stage);
    default:
      return small ? geometry<Small<8>> (stage) : geometry<Big<8>> (stage);
  }
}

int
size_index (unsigned int es)
{
  switch (es) {
    case 1:
      return 0;
    case 2:
      return 1;
    case 3:
      return 2;
    case 4:
      return 3;
    default:
      return 4;
  }
}

/* ---- The planner: every choice of kernel, path, tile and stage. ---- */

/* The kernels a launch can be: one per launch. */
enum Family
{
  /* thin and exact planes, and small tiles: in either k_wide (thin planes
   * alone: k_thin) */
  FAMILY_ANY = -1,
  FAMILY_REGISTERS = 0,         /* k_wide<false, *> */
  FAMILY_STAGED = 1,            /* k_wide<true, *> */
  FAMILY_STREAM = 2,            /* k_stream<E>, its plane alone */
  FAMILY_TILE = 3,              /* k_tile<4>, its plane alone */
  FAMILY_SKINNY = 4,            /* k_skinny, its plane or batch alone */
  FAMILY_MID = 5,               /* k_mid, its plane alone */
  FAMILY_LINES = 6,             /* k_lines, planes of its path alone */
  FAMILY_STREAM_WORDS = 7       /* k_stream_words, its plane alone */
};

constexpr unsigned int size_bit (unsigned int es)
{
  return 1u << es;
}

constexpr unsigned int kEverySize = size_bit (1) | size_bit (2) |
    size_bit (3) | size_bit (4) | size_bit (8);

/* The paths of the one-launch variants: the kernel family that runs one,
 * how its blocks move the plane, in which tile, and the element sizes it
 * takes. What else a path needs of a plane (alignment, shape, being alone)
 * is in fits (). */
struct PathInfo
{
  CtPath path;
  Family family;
  Way way;
  Stage stage;
  unsigned int sizes;
};

constexpr PathInfo kPaths[] = {
  { CT_PATH_WIDE, FAMILY_REGISTERS, WAY_WIDE, STAGE_REGISTERS, kEverySize },
  { CT_PATH_WIDE_PADDED, FAMILY_STAGED, WAY_WIDE, STAGE_PADDED,
      kEverySize & ~size_bit (3) },
  { CT_PATH_WIDE_SWIZZLE, FAMILY_STAGED, WAY_WIDE, STAGE_SWIZZLE,
      kEverySize & ~size_bit (3) },
  /* (3-byte elements in either staged stage: rgb_tile) */
  { CT_PATH_RGB_TILE, FAMILY_STAGED, WAY_WIDE, STAGE_SWIZZLE, size_bit (3) },
  { CT_PATH_SMALL_TILE, FAMILY_ANY, WAY_WIDE, STAGE_SMALL, kEverySize },
  { CT_PATH_STREAM, FAMILY_STREAM, WAY_WIDE, STAGE_STREAM,
      kEverySize & ~size_bit (3) },
  { CT_PATH_TILE_64, FAMILY_TILE, WAY_WIDE, STAGE_TILE, size_bit (4) },
  { CT_PATH_TILE_128, FAMILY_MID, WAY_WIDE, STAGE_MID, size_bit (1) },
  { CT_PATH_TILE_128_LINES, FAMILY_LINES, WAY_WIDE, STAGE_LINES,
      size_bit (1) },
  /* (the rows or the columns tile, by the plane's shape) */
  { CT_PATH_SKINNY, FAMILY_SKINNY, WAY_WIDE, STAGE_SKINNY_ROWS, size_bit (1) },
  { CT_PATH_THIN, FAMILY_ANY, WAY_THIN, STAGE_REGISTERS, kEverySize },
  { CT_PATH_EXACT, FAMILY_ANY, WAY_EXACT, STAGE_REGISTERS, kEverySize },
  { CT_PATH_STREAM_WORDS, FAMILY_STREAM_WORDS, WAY_WIDE, STAGE_STREAM_WORDS,
      size_bit (4) },
};

constexpr unsigned int kNumPaths = sizeof (kPaths) / sizeof (kPaths[0]);

/* kPaths by CtPath: the index of a path's row, or kNumPaths for none (the
 * planner looks a path up several times per plane) */
struct PathIndex
{
  unsigned char row[CT_PATH_COUNT];
};

constexpr PathIndex
index_paths ()
{
  PathIndex index {};
  for (unsigned int p = 0; p < CT_PATH_COUNT; p++)
    index.row[p] = (unsigned char) kNumPaths;
  for (unsigned int i = 0; i < kNumPaths; i++)
    index.row[kPaths[i].path] = (unsigned char) i;
  return index;
}

constexpr PathIndex kPathIndex = index_paths ();

const PathInfo *
path_info (CtPath path)
{
  if ((unsigned int) path >= CT_PATH_COUNT ||
      kPathIndex.row[path] == kNumPaths)
    return nullptr;
  return &kPaths[kPathIndex.row[path]];
}

/* Where auto changes path, in one place. Each number was measured with
 * bench/bench-kernels on an H200 (132 multiprocessors); docs/performance.md
 * ("What auto runs, and why") has the measurements. Tile counts are big tiles
 * (the swizzled stage's) per multiprocessor. */
struct Thresholds
{
  /* planes with fewer rows or columns take the thin path (a tile would
   * leave most of its threads idle) */
  unsigned int thin;
  /* a single plane streams from this many tiles per multiprocessor, in
   * halves (bytes; other sizes from 0; a single byte plane below it takes
   * the mid tile) ... */
  unsigned int stream_from_halves_bytes;
  /* ... or, for a byte plane whose sides are not whole big tiles, from
   * this many (in halves; below it the mid tile: performance.md,
   * "Ragged byte planes stream from 5 tiles a multiprocessor") ... */
  unsigned int stream_ragged_from_halves_bytes;
  /* ... up to this many (larger planes: a tile per block) */
  unsigned int stream_to;
  /* a single 4-byte plane takes the 64x64 tile kernel unless it has from
   * this many to stream_to tiles per multiprocessor (then it streams) */
  unsigned int tile_64_unless_from;
  /* a single 3-byte plane with fewer 128x128 tiles per multiprocessor
   * than this takes the small tile (performance.md, "A single 3-byte
   * plane", under "What auto runs, and why") */
  unsigned int rgb_small_below;
  /* a call of byte planes with fewer big tiles per multiprocessor than
   * this takes the small tile */
  unsigned int small_below;
  /* staged tiles go down the columns of tiles above this many blocks per
   * multiprocessor (k_wide's resident blocks: one wave) */
  unsigned int by_columns_above;
  /* the thin path moves 2, 4 or 8 elements per thread where that still
   * leaves this many blocks per multiprocessor (blocks of one element per
   * thread are too short: scheduling them bounds large thin planes) */
  unsigned int thin_blocks_per_sm;
  /* a byte plane that takes a mid tile takes the lines tile where its
   * width is a multiple of this, else the register tile (performance.md,
   * "A single byte plane") */
  unsigned int lines_width_unit;
  /* a single 4-byte plane in whole elements, not in 16-byte words (a
   * float32 tensor's packed rows), streams (stream-words) from this many
   * of its 128x64 tiles per multiprocessor, in halves; fewer take the
   * exact path's word tile (performance.md, "Packed float32 planes by
   * size") */
  unsigned int stream_words_from_halves;
  /* a single byte plane the skinny tile takes, of fewer of its tiles
   * per multiprocessor than this (in halves), takes the mid tile instead
   * (too few blocks to fill the device); ... */
  unsigned int skinny_from_halves;
  /* ... or than this where it is 64 on its short side (the skinny tile
   * full; performance.md, "Skinny planes by size") */
  unsigned int skinny_full_from_halves;
  /* a call of two or more single byte planes (a frame) takes the lines
   * tile for all its planes, in one launch, where every plane's width is
   * a multiple of this ... */
  unsigned int lines_frame_width_unit;
  /* ... and the call has this many big tiles' bytes (64 KB each) per
   * multiprocessor or more, in eighths (bytes, not tiles: a call of many
   * small planes is no frame); other frames keep the small or the
   * register tile (performance.md, "Frames of byte planes in the lines
   * tile") */
  unsigned int lines_frame_from_eighths;
};

/* The thresholds by name (C++17 has no designated initializers). */
constexpr Thresholds
auto_thresholds ()
{
  Thresholds t {};

  t.thin = 16;
  t.stream_from_halves_bytes = 3;
  t.stream_ragged_from_halves_bytes = 10;
  t.stream_to = 16;
  t.tile_64_unless_from = 2;
  t.rgb_small_below = 2;
  t.small_below = 1;
  t.by_columns_above = kStagedPerSm;
  t.thin_blocks_per_sm = 64;
  t.lines_width_unit = 128;
  t.stream_words_from_halves = 5;
  t.skinny_from_halves = 3;
  t.skinny_full_from_halves = 8;
  t.lines_frame_width_unit = 64;
  t.lines_frame_from_eighths = 1;
  return t;
}

constexpr Thresholds kAuto = auto_thresholds ();

/* What the planner needs to know of the device (plan.h: a test gives
 * it, a launch reads it, ct_device_now ()). */
using Device = CtPlanDevice;

/* The call around an entry. */
struct Call
{
  CtKernel kernel;
  CtPath force;                 /* CT_PATH_NONE: the planner chooses */
  unsigned int n_planes;        /* the call's non-empty planes, in all */
  bool one_entry;               /* the entry is the call's only one */
  /* auto: the big tiles of the whole call; ~0: not counted (yet) */
  unsigned long long call_blocks;
  /* auto: a frame for the lines tile: two or more entries of one byte
   * plane each, every width a multiple of kAuto.lines_frame_width_unit,
   * of kAuto.lines_frame_from_eighths big tiles' bytes a multiprocessor or
   * more (in eighths) */
  bool lines_frame;
};

/* An entry of the call: a plane, or a batch of equal planes. */
struct Entry
{
  const CtPlane *pl;
  unsigned int count;
  /* every pointer, stride and step of the entry ORed: its alignment */
  uintptr_t bits;
};

/* The planner's answer for an entry. */
struct Choice
{
  const PathInfo *info;
  Stage stage;
  unsigned int tiles_x, tiles_y;
  unsigned long long blocks;    /* per plane (stream: the grid) */
  size_t smem;
  bool words;                   /* exact, 8-byte: in native words */
  bool by_columns;
  unsigned int thin_shift;      /* thin: 2^thin_shift elements per thread */
};

/* The thin path's blocks for plane @pl at 2^@shift elements per thread. */
void
thin_geometry (const CtPlane & pl, unsigned int shift, Choice * c)
{
  const bool by_rows = pl.width >= pl.height;

  c->thin_shift = shift;
  c->tiles_x = (unsigned int) div_up (by_rows ? pl.width : pl.height,
      (unsigned long long) kThreads << shift);
  c->tiles_y = by_rows ? pl.height : pl.width;
  c->blocks = (unsigned long long) c->tiles_x * c->tiles_y;
}

/* The exact tile's side for @es-byte elements and its shared memory. */
void
exact_geometry (unsigned int es, unsigned int *tile, size_t * smem)
{
  switch (es) {
    case 1:
      *tile = ExactTile<1>::T;
      *smem = ExactTile<1>::SMEM;
      break;
    case 2:
      *tile = ExactTile<2>::T;
      *smem = ExactTile<2>::SMEM;
      break;
    case 3:
      *tile = ExactTile<3>::T;
      *smem = ExactTile<3>::SMEM;
      break;
    case 4:
      *tile = ExactTile<4>::T;
      *smem = ExactTile<4>::SMEM;
      break;
    default:
      *tile = kFallbackTile;
      *smem = (size_t) kFallbackTile * (kFallbackTile + 1) * es;
      break;
  }
}

/* Whether path @path takes entry @e; if so, *@c is its geometry. */
bool
fits (CtPath path, const Entry & e, const Call & call, const Device & d,
    Choice * c)
{
  const PathInfo *info = path_info (path);
  const CtPlane *pl = e.pl;
  const unsigned int es = pl->elem_size;
  const bool thin = pl->width < kAuto.thin || pl->height < kAuto.thin;
  const bool native = e.bits % es == 0 || es == 3;

  if (info == nullptr || (info->sizes & size_bit (es)) == 0)
    return false;
  *c = Choice {};
  c->info = info;
  c->stage = info->stage;

  if (info->way == WAY_THIN) {
    /* an element per thread along the long side, 256 per block */
    if (!thin || !native)
      return false;
    const bool by_rows = pl->width >= pl->height;
    const unsigned long long enough =
        (unsigned long long) kAuto.thin_blocks_per_sm * d.n_sms;
    const unsigned long long one_each =
        div_up (by_rows ? pl->width : pl->height, kThreads) *
        (by_rows ? pl->height : pl->width) * e.count;
    unsigned int shift = 0;
    while (shift < kThinMaxShift && one_each >> (shift + 1) >= enough)
      shift++;
    thin_geometry (*pl, shift, c);
    /* the lines of a stretch of the long side in neighbouring blocks */
    c->by_columns = true;
    return true;
  }
  if (info->way == WAY_EXACT) {
    unsigned int tile;
    exact_geometry (es, &tile, &c->smem);
    c->tiles_x = (unsigned int) div_up (pl->width, tile);
    c->tiles_y = (unsigned int) div_up (pl->height, tile);
    c->blocks = (unsigned long long) c->tiles_x * c->tiles_y;
    c->words = e.bits % es == 0;
    /* a single 4-byte plane in whole words, of at most the L2's bytes,
     * alone in its launch: the word tile (k_exact_words) */
    if (es == 4 && c->words && call.n_planes == 1 && e.count == 1 &&
        (unsigned long long) pl->width * pl->height * es <= d.l2_bytes) {
      c->stage = STAGE_WORDS;
      c->smem = kStagedSmem;
    }
    return true;
  }

  /* the wide tiles: planes at least kAuto.thin each way, under any of
   * the four mappings (plane_args) */
  if (thin)
    return false;
  if (path == CT_PATH_SKINNY) {
    if (!call.one_entry)
      return false;
    if (pl->height <= (unsigned int) SkinnyRows::ROWS)
      c->stage = STAGE_SKINNY_ROWS;
    else if (pl->width <= (unsigned int) SkinnyCols::COLS)
      c->stage = STAGE_SKINNY_COLS;
    else
      return false;
  }
  /* (k_stream, k_stream_words, k_tile and k_mid take one plane, k_lines
   * the planes of a call; none a batch) */
  const bool streams = path == CT_PATH_STREAM ||
      path == CT_PATH_STREAM_WORDS;
  const bool one_plane = streams || path == CT_PATH_TILE_64 ||
      path == CT_PATH_TILE_128;
  if ((one_plane && call.n_planes != 1) ||
      ((one_plane || path == CT_PATH_TILE_128_LINES) && e.count != 1))
    return false;

  const Geometry g = geometry_of (es, c->stage);
  if (e.bits % g.align != 0 || g.smem > d.max_smem)
    return false;
  c->tiles_x = (unsigned int) div_up (pl->width, g.cols);
  c->tiles_y = (unsigned int) div_up (pl->height, g.rows);
  c->blocks = (unsigned long long) c->tiles_x * c->tiles_y;
  c->smem = g.smem;
  if (c->blocks > kMaxGridX)
    return false;
  if (streams) {
    /* a grid of as many blocks as the device holds at once, or fewer
     * for fewer tiles */
    unsigned long long per_sm = d.smem_per_sm / (g.smem + d.smem_reserved);
    if (per_sm > kStreamPerSm)
      per_sm = kStreamPerSm;
    if (per_sm < 1)
      per_sm = 1;
    if (c->blocks > per_sm * d.n_sms)
      c->blocks = per_sm * d.n_sms;
  }
  /* the blocks in flight then write whole destination rows and read a
   * few hundred bytes of each source row (docs/performance.md) */
  c->by_columns = info->family == FAMILY_STAGED &&
      c->blocks > (unsigned long long) kAuto.by_columns_above * d.n_sms;
  return true;
}

/* The path of a named wide variant: its own tile, where the plane allows
 * it (3-byte elements: the staged variants' rgb tile). */
CtPath
own_path (CtKernel kernel, unsigned int es)
{
  switch (kernel) {
    case CT_KERNEL_WIDE_PADDED:
      return es == 3 ? CT_PATH_RGB_TILE : CT_PATH_WIDE_PADDED;
    case CT_KERNEL_WIDE_SWIZZLE:
      return es == 3 ? CT_PATH_RGB_TILE : CT_PATH_WIDE_SWIZZLE;
    default:
      return CT_PATH_WIDE;
  }
}

/* The mid tile for a single byte plane: in whole 128-byte lines each way
 * where the plane allows and is of a width the lines tile suits, else in
 * registers (measured: docs/kernels.md, "The lines tile for byte
 * planes"). */
bool
fits_mid (const Entry & e, const Call & call, const Device & d, Choice * c)
{
  return (e.pl->width % kAuto.lines_width_unit == 0 &&
      fits (CT_PATH_TILE_128_LINES, e, call, d, c)) ||
      fits (CT_PATH_TILE_128, e, call, d, c);
}

/* auto: the thin path for thin planes; the lines tile for the planes of a
 * frame of byte planes of whole 64-byte widths and enough tiles, all in
 * one launch (by kAuto); a skinny tile for a byte plane or batch alone in
 * its call with a short side of 16 to 64 (a single plane of few skinny
 * tiles the mid tile, by kAuto); on a single plane the swizzled big tile,
 * on another frame the register one (measured:
 * docs/kernels.md, "Swizzled tile for a plane, register tile for a frame");
 * a single plane may stream or take the 64x64 tile kernel instead, a
 * 3-byte one of few tiles and a call of small byte planes the small tile,
 * by kAuto; else the exact tile. */
Choice
plan_auto (const Entry & e, const Call & call, const Device & d)
{
  const CtPlane *pl = e.pl;
  const unsigned int es = pl->elem_size;
  const unsigned long long n_sms = d.n_sms;
  Choice c, big;

  if (fits (CT_PATH_THIN, e, call, d, &c))
    return c;
  if (call.lines_frame && fits (CT_PATH_TILE_128_LINES, e, call, d, &c))
    return c;
  if (fits (CT_PATH_SKINNY, e, call, d, &c)) {
    const unsigned int short_side = pl->width < pl->height ? pl->width :
        pl->height;
    const unsigned long long from = (short_side >= 64 ?
        kAuto.skinny_full_from_halves : kAuto.skinny_from_halves) * n_sms / 2;
    Choice mid;

    if (c.blocks < from && fits_mid (e, call, d, &mid))
      return mid;
    return c;
  }

  const CtPath big_path = call.n_planes > 1 ? CT_PATH_WIDE :
      own_path (CT_KERNEL_WIDE_SWIZZLE, es);
  const bool big_ok = fits (big_path, e, call, d, &big);

  if (big_ok && big_path == CT_PATH_WIDE_SWIZZLE) {
    const bool stream_4 = big.blocks >= kAuto.tile_64_unless_from * n_sms &&
        big.blocks <= kAuto.stream_to * n_sms &&
        pl->width >= (unsigned int) Stream<4>::COLS &&
        pl->height >= (unsigned int) Stream<4>::ROWS;
    if (es == 4 && !stream_4 && fits (CT_PATH_TILE_64, e, call, d, &c))
      return c;
    const Geometry bg = geometry_of (es, big.stage);
    const bool ragged = pl->width % bg.cols != 0 || pl->height % bg.rows != 0;
    const unsigned long long from = es != 1 ? 0 : (ragged ?
        kAuto.stream_ragged_from_halves_bytes :
        kAuto.stream_from_halves_bytes) * n_sms / 2;
    if (big.blocks >= from && big.blocks <= kAuto.stream_to * n_sms &&
        fits (CT_PATH_STREAM, e, call, d, &c))
      return c;
    /* a byte plane too small to stream: the mid tile in a kernel of its
     * own */
    if (es == 1 && big.blocks < from && fits_mid (e, call, d, &c))
      return c;
  }
  if (big_ok && big_path == CT_PATH_RGB_TILE &&
      big.blocks < kAuto.rgb_small_below * n_sms &&
      fits (CT_PATH_SMALL_TILE, e, call, d, &c))
    return c;

  /* beside a big tile of another size, small tiles leave that one to
   * finish last: only calls of byte planes alone */
  const bool want_small = es == 1 ?
      call.call_blocks < kAuto.small_below * n_sms : !big_ok;
  if (big_ok && !want_small)
    return big;
  /* a single plane of 4-byte elements whose rows the big tiles cannot
   * take (a tensor's tight rows): the exact kernel, not the small tile
   * (measured: docs/kernels.md,
   * "The exact kernel for a packed float32 plane") */
  const bool exact_kernel = es == 4 && !big_ok && call.n_planes == 1 &&
      e.count == 1;
  /* such a plane in whole elements, of enough tiles, streams, every store
   * a whole aligned word (stream-words) */
  if (exact_kernel && fits (CT_PATH_STREAM_WORDS, e, call, d, &c) &&
      2ull * c.tiles_x * c.tiles_y >= kAuto.stream_words_from_halves * n_sms)
    return c;
  if (want_small && !exact_kernel &&
      fits (CT_PATH_SMALL_TILE, e, call, d, &c))
    return c;
  if (big_ok)
    return big;
  fits (CT_PATH_EXACT, e, call, d, &c);
  return c;
}

/* The planner: the path entry @e of @call takes, or CT_ERROR_UNSUPPORTED_
 * KERNEL for a forced path that cannot take it. */
CtResult
plan (const Entry & e, const Call & call, const Device & d, Choice * c)
{
  if (call.force != CT_PATH_NONE)
    return fits (call.force, e, call, d, c) ? CT_OK :
        CT_ERROR_UNSUPPORTED_KERNEL;
  if (call.kernel == CT_KERNEL_AUTO) {
    *c = plan_auto (e, call, d);
    return CT_OK;
  }
  if (!fits (CT_PATH_THIN, e, call, d, c) &&
      !fits (own_path (call.kernel, e.pl->elem_size), e, call, d, c))
    fits (CT_PATH_EXACT, e, call, d, c);
  return CT_OK;
}

}  // namespace
