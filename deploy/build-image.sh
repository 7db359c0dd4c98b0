#!/usr/bin/env bash
# Builds hammer as a static binary on this machine and packs it into the runtime image
# with deploy/Dockerfile.prebuilt (FROM scratch): no registry, nothing pulled.
#
#     deploy/build-image.sh [TAG]       # default hammer:local
#
# Needs cargo, readelf and strip (binutils) and a Docker engine. Build output goes to
# $CARGO_TARGET_DIR (default target/) under the host triple, apart from the usual builds.
# HAMMER_IMAGE_PROFILE picks the cargo profile (default release; the Compose test uses
# image-test, which builds faster and runs slower).
# Use deploy/Dockerfile instead where a registry holds the Rust build image.
set -euo pipefail
cd "$(dirname "$0")/.."
tag="${1:-hammer:local}"
triple="$(rustc -vV | sed -n 's/^host: //p')"
target_dir="${CARGO_TARGET_DIR:-target}"
profile="${HAMMER_IMAGE_PROFILE:-release}"

# The same flags as deploy/Dockerfile: only the final binary is static (--target keeps
# build scripts and proc macros dynamic); no charts (fontconfig does not link statically).
RUSTFLAGS="-C target-feature=+crt-static" \
    cargo build --locked --profile "$profile" --target "$triple" -p hammer --no-default-features

context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT
cp "$target_dir/$triple/$profile/hammer" "$context/hammer"
strip "$context/hammer"
if readelf -l "$context/hammer" | grep -q 'program interpreter'; then
    echo "build-image.sh: $target_dir/$triple/$profile/hammer is not statically linked" >&2
    exit 1
fi
"$context/hammer" --version >/dev/null
mkdir -p "$context/data" "$context/rootfs/tmp" "$context/rootfs/etc/ssl/certs"
chmod 1777 "$context/rootfs/tmp"
# The CA certificates of an object store's HTTPS endpoint: the TLS client of the store
# (rustls with the platform's roots) finds none in an empty image and refuses to start.
ca="${HAMMER_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
if [[ ! -f "$ca" ]]; then
    echo "build-image.sh: no CA bundle at $ca (install ca-certificates, or set HAMMER_CA_BUNDLE)" >&2
    exit 1
fi
cp "$ca" "$context/rootfs/etc/ssl/certs/ca-certificates.crt"
docker build --quiet -f deploy/Dockerfile.prebuilt -t "$tag" "$context" >/dev/null
size="$(docker image inspect -f '{{.Size}}' "$tag")"
echo "built $tag from $target_dir/$triple/$profile/hammer ($size bytes)"
