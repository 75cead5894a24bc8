/* cudatranspose tests: the planner tests' tally (tests/kernels/test-plan-
 * *.c): each check counted, a failure printed with the rule it checks, the
 * summary and exit status at the end; and the rounding up their expected
 * grids share. Header only, one program each. */
#pragma once

#include <stdio.h>

static int n_passed, n_failed;

/* Counts a check of @rule (what it is about) on @what: @ok, or a failure
 * that prints @got against @want. */
static void
check (int ok, const char *rule, const char *what, unsigned long long got,
    unsigned long long want)
{
  if (ok) {
    n_passed++;
    return;
  }
  n_failed++;
  printf ("FAIL %s: %s: got %llu, want %llu\n", rule, what, got, want);
}

#define CHECK(rule, what, got, want) \
  check ((unsigned long long) (got) == (unsigned long long) (want), rule, \
      what, (unsigned long long) (got), (unsigned long long) (want))

/* @a / @b rounded up: the tests' own, for the grids they expect. */
static inline unsigned long long
up (unsigned long long a, unsigned long long b)
{
  return a / b + (a % b != 0);
}

/* The summary line; the program's exit status. */
static int
tally_finish (void)
{
  printf ("%d passed, %d failed\n", n_passed, n_failed);
  return n_failed ? 1 : 0;
}
