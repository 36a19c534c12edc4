#!/bin/sh
# Builds a container image of the reference without any image from a registry: a root
# filesystem of the local `node`, the shared libraries `ldd` lists for it and for the native
# modules under node_modules (DuckDB), and the project with its runtime node_modules, then
# `docker build` of the FROM-scratch Dockerfile at the project root with that tree as context.
#
#   tools/docker/build-image.sh [IMAGE]        (default eac-reference:local)
#
# The image serves the reference with its hooks on port 8080 (hooks under /__eac) and the hub
# on 8081: `npx eac run --image eac-reference:local`.
set -eu

IMAGE="${1:-eac-reference:local}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
STAGE="$(mktemp -d "${TMPDIR:-/tmp}/eac-rootfs.XXXXXX")"
trap 'rm -rf "$STAGE"' EXIT
NODE="$(readlink -f "$(command -v node)")"

mkdir -p "$STAGE/usr/bin" "$STAGE/tmp" "$STAGE/eac" "$STAGE/etc"
chmod 1777 "$STAGE/tmp"

# One copy of a file at its own path inside the tree (symlinks resolved, the link kept too).
place() {
  real="$(readlink -f "$1")"
  mkdir -p "$STAGE$(dirname "$real")"
  cp -L "$real" "$STAGE$real"
  if [ "$1" != "$real" ]; then
    mkdir -p "$STAGE$(dirname "$1")"
    ln -sf "$real" "$STAGE$1"
  fi
}

# The libraries a binary loads, and the loader itself (the `=> /path` and bare `/path` forms).
libraries() {
  ldd "$1" | awk '/=> \//{print $3} /^[ \t]*\/[^ ]+ \(/{print $1}'
}

cp "$NODE" "$STAGE/usr/bin/node"
for lib in $(libraries "$NODE"); do place "$lib"; done

# The project: sources and node_modules, without history, reports or the staging tree itself.
tar -C "$ROOT" \
  --exclude=./.git --exclude=./reports/runs --exclude=./reports/latest \
  --exclude=./.eac-tmp --exclude=./.stryker-tmp --exclude=./reports/mutation \
  -cf - . | tar -C "$STAGE/eac" -xf -
# Only what runs: the development tools (typescript, eslint, stryker, ...) are left out.
(cd "$STAGE/eac" && npm prune --omit=dev --no-audit --no-fund --offline >/dev/null 2>&1) ||
  echo "build-image: npm prune failed; keeping every package" >&2
# The image serves the reference: what it loads beyond the package's dependencies goes back
# in (devDependencies of a clone: DuckDB, an optional peer of the package, and Fastify, which
# the bundle carries but the sources load), with their own dependencies.
(cd "$ROOT" && npm query '#@duckdb/node-api, #@duckdb/node-api *, #fastify, #fastify *') |
  node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).map((p) => p.location).join("\n")))' |
  while read -r location; do
    mkdir -p "$STAGE/eac/$(dirname "$location")"
    rm -rf "${STAGE:?}/eac/$location"
    cp -a "$ROOT/$location" "$STAGE/eac/$location"
  done

for module in $(find "$STAGE/eac/node_modules" -name '*.node' -type f); do
  for lib in $(libraries "$module" 2>/dev/null | grep -v "^$STAGE" || true); do place "$lib"; done
done

# A user table, so that os.userInfo() and tools reading /etc/passwd do not throw.
printf 'root:x:0:0:root:/root:/usr/sbin/nologin\n' > "$STAGE/etc/passwd"
printf 'root:x:0:\n' > "$STAGE/etc/group"

echo "build-image: root filesystem $(du -sh "$STAGE" | cut -f1) in $STAGE" >&2
docker build --quiet --tag "$IMAGE" --file "$ROOT/Dockerfile" "$STAGE"
docker image inspect --format 'build-image: {{.Id}} {{.Size}} bytes' "$IMAGE" >&2
