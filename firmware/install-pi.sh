#!/usr/bin/env bash
# Install the tabletop companion on Raspberry Pi OS Bookworm (Lite or desktop), from a clone:
#
#   sudo ./firmware/install-pi.sh
#
# apt packages -> `tabletop` system user and groups -> venv in /opt/tabletop/venv (sees apt's
# picamera2) -> pip install of this clone -> systemd unit installed and enabled -> boot config
# merged into /boot/firmware. Every step checks first, so a second run changes nothing.
#
#   --root DIR        write everything under DIR instead of /; what cannot happen there (apt,
#                     useradd, systemctl daemon-reload) is printed as "would run: ..."
#   --skip-pip        no pip install (and a venv without pip); for quick checks
#   --boot-dir DIR    boot partition (default /boot/firmware, under --root if given)
#   --no-boot-config  leave config.txt and cmdline.txt alone
#   --panel P --rotate N   console orientation for an official DSI panel (see merge_boot_config.py)
#   --uninstall       undo: unit, /opt/tabletop, boot settings; keeps the scorebook and the user
#   --purge           with --uninstall: also delete /var/lib/tabletop and the tabletop user
set -euo pipefail
umask 022

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
APP_USER="tabletop"
APP_GROUPS=(video render input gpio)
APT_PACKAGES=(
    python3 python3-venv python3-pip   # the venv and pip
    python3-picamera2                  # libcamera + picamera2 (not on PyPI for the Pi)
    python3-lgpio                      # gpiozero's pin factory on Bookworm (Pi 5 included)
    libgbm1 libdrm2 libegl1 libgles2 libgl1-mesa-dri   # SDL's kmsdrm video driver (pygame-ce)
)
# apt's simplejpeg (imported by picamera2) is built against Debian's numpy 1.24, but the
# app's OpenCV pulls numpy 2 into the venv: "numpy.dtype size changed" at `import picamera2`
# (raspberrypi/picamera2#1088, #1211). A simplejpeg wheel built for numpy 2 in the venv fixes it.
PIP_EXTRAS=("simplejpeg>=1.8.1")
UNIT_NAME="tabletop.service"
# Debian's interpreter: apt's python3-picamera2 lives in its dist-packages.
SYSTEM_PYTHON="/usr/bin/python3"

ROOT=""
SKIP_PIP=0
BOOT_DIR=""
BOOT_CONFIG=1
PANEL_ARGS=()
UNINSTALL=0
PURGE=0
CHANGED=0
REBOOT_NEEDED=0

say() { printf '== %s\n' "$*"; }
note() { printf '   %s\n' "$*"; }
die() { printf 'install-pi: %s\n' "$*" >&2; exit 1; }
changed() { CHANGED=1; note "$*"; }

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }

# Runs a command on the real system; under --root only says what it would run.
host_run() {
    if [[ -n "$ROOT" ]]; then
        local shown
        shown="$(printf '%q ' "$@")"
        note "would run: ${shown% }"
    else
        "$@"
    fi
}

parse_args() {
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --root) [[ $# -ge 2 ]] || die "--root needs a directory"; ROOT="$2"; shift ;;
            --skip-pip) SKIP_PIP=1 ;;
            --boot-dir) [[ $# -ge 2 ]] || die "--boot-dir needs a directory"; BOOT_DIR="$2"; shift ;;
            --no-boot-config) BOOT_CONFIG=0 ;;
            --panel|--rotate) [[ $# -ge 2 ]] || die "$1 needs a value"; PANEL_ARGS+=("$1" "$2"); shift ;;
            --uninstall) UNINSTALL=1 ;;
            --purge) PURGE=1 ;;
            -h|--help) usage; exit 0 ;;
            *) die "unknown option '$1' (see --help)" ;;
        esac
        shift
    done
    if [[ -n "$ROOT" ]]; then
        [[ -d "$ROOT" ]] || die "--root $ROOT is not a directory"
        ROOT="$(cd "$ROOT" && pwd)"
        [[ "$ROOT" != "/" ]] || die "--root / is the real system: leave --root out"
    elif [[ $EUID -ne 0 ]]; then
        die "run as root: sudo $0 $*"
    fi
    [[ $PURGE -eq 0 || $UNINSTALL -eq 1 ]] || die "--purge goes with --uninstall"
    BOOT_DIR="${BOOT_DIR:-$ROOT/boot/firmware}"
    PREFIX="$ROOT/opt/tabletop"
    VENV="$PREFIX/venv"
    UNIT_PATH="$ROOT/etc/systemd/system/$UNIT_NAME"
    STATE_DIR="$ROOT/var/lib/tabletop"
    [[ -f "$REPO/pyproject.toml" && -f "$REPO/systemd/$UNIT_NAME" ]] \
        || die "$REPO does not look like a tabletop clone (no pyproject.toml or systemd unit)"
}

install_apt_packages() {
    say "apt packages"
    local missing=() package
    for package in "${APT_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
            || missing+=("$package")
    done
    if [[ ${#missing[@]} -eq 0 ]]; then
        note "all installed"
        return
    fi
    [[ -n "$ROOT" ]] || CHANGED=1
    host_run apt-get update
    host_run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${missing[@]}"
}

create_user() {
    say "user $APP_USER and groups ${APP_GROUPS[*]}"
    local group
    for group in "${APP_GROUPS[@]}"; do
        # Raspberry Pi OS has them all; SupplementaryGroups= fails the unit if one is missing.
        getent group "$group" >/dev/null || { [[ -n "$ROOT" ]] || CHANGED=1; host_run groupadd --system "$group"; }
    done
    if id "$APP_USER" >/dev/null 2>&1; then
        note "user $APP_USER exists"
    else
        [[ -n "$ROOT" ]] || CHANGED=1
        host_run useradd --system --user-group --home-dir /var/lib/tabletop --no-create-home \
            --shell /usr/sbin/nologin --comment "Tabletop companion" "$APP_USER"
    fi
    local missing_groups=()
    for group in "${APP_GROUPS[@]}"; do
        id -nG "$APP_USER" 2>/dev/null | tr ' ' '\n' | grep -qx "$group" || missing_groups+=("$group")
    done
    if [[ ${#missing_groups[@]} -gt 0 ]]; then
        [[ -n "$ROOT" ]] || CHANGED=1
        host_run usermod --append --groups "$(IFS=,; echo "${missing_groups[*]}")" "$APP_USER"
    fi
}

source_fingerprint() {
    # Editors' temporary files may vanish between find and sha256sum: that must not stop us.
    (cd "$REPO" && {
        find pyproject.toml engines vision hardware display companion -type f \
            -not -path '*/__pycache__/*' -not -name '*.pyc' -not -name '.*' -print0 2>/dev/null \
            | sort -z | xargs -0 sha256sum 2>/dev/null || true
    } | sha256sum | cut -d' ' -f1)
}

create_venv() {
    say "venv $VENV"
    if [[ -x "$VENV/bin/python" ]]; then
        note "exists"
        return
    fi
    mkdir -p "$PREFIX"
    local pip_flag=()
    [[ $SKIP_PIP -eq 0 ]] || pip_flag=(--without-pip)
    "$SYSTEM_PYTHON" -m venv --system-site-packages "${pip_flag[@]}" "$VENV"
    changed "created (with --system-site-packages, so apt's picamera2 and lgpio are visible)"
}

install_app() {
    say "pip install $REPO"
    local stamp="$PREFIX/installed-source.sha256" fingerprint
    fingerprint="$(source_fingerprint) ${PIP_EXTRAS[*]}"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$fingerprint" ]]; then
        note "this source is already installed"
        return
    fi
    if [[ $SKIP_PIP -eq 1 ]]; then
        note "skipped (--skip-pip): $VENV/bin/pip install $REPO ${PIP_EXTRAS[*]}"
        return
    fi
    [[ -x "$VENV/bin/pip" ]] || "$VENV/bin/python" -m ensurepip --upgrade >/dev/null
    # pip builds in the source tree: build from a copy, so root leaves no build/ in the clone.
    local source
    source="$(mktemp -d)"
    (cd "$REPO" && cp -r pyproject.toml engines vision hardware display companion "$source/" \
        && { [[ ! -f README.md ]] || cp README.md "$source/"; })
    find "$source" -name __pycache__ -prune -exec rm -rf {} +
    "$VENV/bin/pip" install --no-input --disable-pip-version-check "$source" "${PIP_EXTRAS[@]}" \
        || { rm -rf "$source"; die "pip install failed (see above)"; }
    rm -rf "$source"
    echo "$fingerprint" >"$stamp"
    changed "installed $VENV/bin/tabletop"
}

install_docs() {
    local doc="$REPO/docs/raspberry-pi.md" target="$PREFIX/docs/raspberry-pi.md"
    [[ -f "$doc" ]] || return 0
    if ! cmp -s "$doc" "$target"; then
        install -D -m 0644 "$doc" "$target"
        changed "docs in $PREFIX/docs (the unit's Documentation=)"
    fi
}

install_unit() {
    say "systemd unit $UNIT_PATH"
    if cmp -s "$REPO/systemd/$UNIT_NAME" "$UNIT_PATH"; then
        note "up to date"
    else
        install -D -m 0644 "$REPO/systemd/$UNIT_NAME" "$UNIT_PATH"
        changed "installed"
        host_run systemctl daemon-reload
    fi
    local wants="$ROOT/etc/systemd/system/multi-user.target.wants/$UNIT_NAME"
    if [[ -L "$wants" ]]; then
        note "enabled"
    else
        # systemctl --root edits an offline tree without a running systemd.
        systemctl ${ROOT:+--root="$ROOT"} enable "$UNIT_NAME" 2>&1 | sed 's/^/   /'
        changed "enabled at boot (multi-user.target)"
    fi
}

merge_boot_config() {
    say "boot config in $BOOT_DIR"
    if [[ $BOOT_CONFIG -eq 0 ]]; then
        note "skipped (--no-boot-config)"
        return
    fi
    if [[ -n "$ROOT" && ! -f "$BOOT_DIR/config.txt" ]]; then
        note "skipped: no $BOOT_DIR/config.txt under --root"
        return
    fi
    local output
    output="$("$SYSTEM_PYTHON" "$REPO/firmware/merge_boot_config.py" --boot-dir "$BOOT_DIR" \
        "${PANEL_ARGS[@]}" "$@")" || die "boot config not merged (see above); nothing else to undo"
    printf '%s\n' "$output" | sed 's/^/   /'
    if grep -q "reboot needed" <<<"$output"; then
        CHANGED=1
        REBOOT_NEEDED=1
    fi
}

check_picamera2() {
    [[ -z "$ROOT" && -x "$VENV/bin/python" ]] || return 0
    local problem
    problem="$("$VENV/bin/python" -c "import picamera2" 2>&1 | tail -n 1)" \
        || note "warning: picamera2 does not import in the venv ($problem); no Pi camera"
}

do_install() {
    install_apt_packages
    create_user
    create_venv
    install_app
    install_docs
    install_unit
    merge_boot_config
    check_picamera2
    say "done"
    if [[ $CHANGED -eq 0 ]]; then
        note "nothing changed: already installed"
    elif [[ $REBOOT_NEEDED -eq 1 ]]; then
        note "reboot needed: sudo reboot (the companion then starts by itself)"
    else
        host_run systemctl restart "$UNIT_NAME"
    fi
}

remove_path() {  # remove_path PATH DESCRIPTION
    if [[ -e "$1" || -L "$1" ]]; then
        rm -rf -- "$1"
        changed "removed $2 ($1)"
    fi
}

do_uninstall() {
    say "uninstall"
    [[ ${#PANEL_ARGS[@]} -eq 0 ]] || die "--uninstall takes no --panel/--rotate"
    if [[ -e "$UNIT_PATH" ]]; then
        host_run systemctl disable --now "$UNIT_NAME"
    fi
    remove_path "$ROOT/etc/systemd/system/multi-user.target.wants/$UNIT_NAME" "boot-time link"
    remove_path "$UNIT_PATH" "systemd unit"
    [[ $CHANGED -eq 0 ]] || host_run systemctl daemon-reload
    remove_path "$PREFIX" "venv and docs"
    PANEL_ARGS=()
    merge_boot_config --remove
    if [[ $PURGE -eq 1 ]]; then
        remove_path "$STATE_DIR" "game log and scorebook"
        if id "$APP_USER" >/dev/null 2>&1; then
            host_run userdel "$APP_USER"
        fi
    else
        note "kept: $STATE_DIR (game log, scorebook) and user $APP_USER; --purge removes them"
    fi
    note "apt packages stay installed"
    [[ $CHANGED -eq 1 ]] || note "nothing to remove"
    [[ $REBOOT_NEEDED -eq 0 ]] || note "reboot needed for the stock boot settings to return"
}

main() {
    parse_args "$@"
    if [[ $UNINSTALL -eq 1 ]]; then
        do_uninstall
    else
        do_install
    fi
}

main "$@"
