#!/usr/bin/python3
"""Runs the README's commands as a user would, against a build.

    readme-commands.py SOURCE_ROOT BUILD_DIR

Every command in the README's ```sh blocks (a line and the lines its
trailing backslashes join to it), in order, in one shell, in a scratch
folder whose `build` is BUILD_DIR and whose other entries are the source
tree's; `out/` is the scratch folder's own. Nothing points GStreamer at the
plugin but what the README's commands set.

Not run, and why:
- a command under a comment `# needs a GPU` (or `# needs a display`):
  listed as skipped;
- `./setup.sh VERB` sets up the whole machine (packages, build): VERB must
  be one setup.sh takes; for `demo`, the command setup.sh runs after its
  build (its `demo) exec ...` line) is run instead, with the plugin path
  setup.sh exports;
- `meson setup` / `meson configure` would change the build under test:
  every -Dname=value must name an option of meson_options.txt or Meson's
  own, and the folder must be `build`;
- a gst-launch-1.0 command naming another plugin's element this machine
  lacks (openh264enc, say): listed as skipped;
- `sudo ...` (installing system-wide): its command must be `meson` or
  `ninja` with `-C build`.
A command that exits 77 (a program that cannot run here, e.g. the Python
example without PyGObject) is listed as skipped, with the reason it prints.
Exits 77 where gst-launch-1.0 is missing or the README has no command.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

MESON_BUILTINS = {"prefix", "libdir", "buildtype", "b_sanitize", "b_lundef",
                  "default_library", "optimization", "debug", "werror"}


def commands(readme):
    """(line number, command, skip reason or None) for each sh command."""
    out = []
    in_sh = False
    skip = None
    cur = None
    for n, line in enumerate(open(readme), 1):
        s = line.rstrip("\n")
        if s.startswith("```"):
            in_sh = (not in_sh) and s.strip() == "```sh"
            skip = None
            continue
        if not in_sh:
            continue
        if cur is not None:
            cur[1] += "\n" + s
            if not s.endswith("\\"):
                out.append(tuple(cur))
                cur = None
            continue
        m = re.match(r"\s*#\s*needs (a GPU|a display)\b", s)
        if m:
            skip = "needs " + m.group(1)
            continue
        if not s.strip() or s.lstrip().startswith("#"):
            continue
        cur = [n, s, skip]
        skip = None
        if not s.endswith("\\"):
            out.append(tuple(cur))
            cur = None
    return out


def strip_comment(cmd):
    # a trailing "  # ..." remark, outside quotes
    return re.sub(r"\s+#\s.*$", "", cmd)


def setup_verbs(src):
    text = open(os.path.join(src, "setup.sh")).read()
    m = re.search(r'case "\$what" in\s*\n\s*([a-z|]+)\)', text)
    verbs = set(m.group(1).split("|")) if m else set()
    demo = re.search(r"^\s*demo\) exec (.*?) ;;", text, re.M)
    return verbs, demo.group(1) if demo else None


def meson_options(src):
    text = open(os.path.join(src, "meson_options.txt")).read()
    return set(re.findall(r"option\('([a-z_]+)'", text))


def check_setup_command(cmd, src):
    """None if the command is one the README may show, else why not."""
    words = shlex.split(strip_comment(cmd))
    while words and "=" in words[0] and not words[0].startswith("-"):
        words = words[1:]  # VAR=value before the command
    if words[:1] == ["./setup.sh"]:
        verbs, _ = setup_verbs(src)
        if len(words) != 2 or words[1] not in verbs:
            return "setup.sh takes %s, not %s" % (sorted(verbs), words[1:])
        return None
    if words[:1] == ["sudo"]:
        w = words[1:]
        if w[:1] not in (["meson"], ["ninja"]) or "-C" not in w or \
                w[w.index("-C") + 1:w.index("-C") + 2] != ["build"]:
            return "a sudo line must be meson or ninja on -C build"
        return None
    if words[:2] in (["meson", "setup"], ["meson", "configure"]):
        if words[2:3] != ["build"]:
            return "not the build folder build/"
        known = meson_options(src) | MESON_BUILTINS
        for w in words[3:]:
            m = re.match(r"(?:-D|--)([a-z_]+)=", w)
            if not m or m.group(1) not in known:
                return "unknown option %s" % w
        return None
    return "not a setup command"


def is_setup_command(cmd):
    first = strip_comment(cmd).split()
    while first and "=" in first[0] and not first[0].startswith("-"):
        first = first[1:]
    return first[:1] in (["./setup.sh"], ["sudo"]) or \
        first[:2] in (["meson", "setup"], ["meson", "configure"])


def missing_elements(cmd, env):
    """Other plugins' elements a gst-launch-1.0 command names that this
    machine lacks (openh264enc is not everywhere); never cudatranspose."""
    words = strip_comment(cmd).replace("\\\n", " ").split()
    if "gst-launch-1.0" not in words:
        return []
    names = []
    after = words[words.index("gst-launch-1.0") + 1:]
    prev = "!"
    for w in after:
        if prev == "!" and re.match(r"^[a-z0-9]+$", w) and \
                w != "cudatranspose":
            names.append(w)
        if not w.startswith("-"):
            prev = w
    return [e for e in names if subprocess.call(
        ["gst-inspect-1.0", "--exists", e], env=env) != 0]


def main():
    src, build = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if not shutil.which("gst-launch-1.0"):
        print("SKIP: gst-launch-1.0 is not installed")
        return 77
    cmds = commands(os.path.join(src, "README.md"))
    if not cmds:
        print("SKIP: no sh commands found in README.md")
        return 77
    work = tempfile.mkdtemp(prefix="readme-")
    for entry in os.listdir(src):
        if entry in ("build", "out") or entry.startswith("."):
            continue
        os.symlink(os.path.join(src, entry), os.path.join(work, entry))
    os.symlink(build, os.path.join(work, "build"))

    env = dict(os.environ)
    for var in ("GST_PLUGIN_PATH", "GST_PLUGIN_PATH_1_0"):
        env.pop(var, None)
    env["GST_REGISTRY_1_0"] = os.path.join(work, "registry.bin")

    script = ["fail=0"]
    failures = []
    for n, cmd, skip in cmds:
        one_line = " ".join(cmd.split())
        if skip:
            print("README:%d skipped (%s): %s" % (n, skip, one_line[:90]))
            continue
        missing = missing_elements(cmd, env)
        if missing:
            print("README:%d skipped (no element %s here): %s" % (
                n, ", ".join(missing), one_line[:90]))
            continue
        if is_setup_command(cmd):
            why = check_setup_command(cmd, src)
            if why:
                failures.append("README:%d %s: %s" % (n, why, one_line))
                continue
            print("README:%d checked, not run: %s" % (n, one_line))
            _, demo = setup_verbs(src)
            if strip_comment(cmd).split()[-1] == "demo" and demo:
                # with the plugin path setup.sh exports before it
                cmd = "GST_PLUGIN_PATH_1_0=$PWD/build/gst " + demo
                one_line = "(what ./setup.sh demo runs after its build) " + \
                    cmd
            else:
                continue
        script.append("echo %s" % shlex.quote("README:%d $ %s" % (n, one_line)))
        # (77: the command skips, as the tests do, saying why above)
        script.append("%s\nrc=$?; if [ $rc -eq 77 ]; then echo %s; "
                      "elif [ $rc -ne 0 ]; then echo %s $rc; fail=1; fi" % (
                          cmd, shlex.quote("README:%d skipped (exit code 77, "
                                           "the reason above)" % n),
                          shlex.quote("README:%d failed, exit code" % n)))
    script.append("exit $fail")
    rc = subprocess.call(["sh", "-c", "\n".join(script)], cwd=work, env=env,
                         timeout=600)
    for f in failures:
        print(f)
    shutil.rmtree(work, ignore_errors=True)
    if rc or failures:
        print("FAIL: README commands failed (above)")
        return 1
    print("every README command that needs no GPU ran")
    return 0


if __name__ == "__main__":
    sys.exit(main())
