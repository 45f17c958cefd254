#!/usr/bin/env bash
# Install the tabletop companion on Raspberry Pi OS Bookworm (Lite or desktop), from a clone:
#
#   sudo ./firmware/install-pi.sh
#
# Checks first, changes nothing until all pass: Raspberry Pi OS / Debian, Bookworm, a 64-bit
# (aarch64) userland, the Raspberry Pi archive (python3-picamera2), free space, the Pi model.
# Then: apt packages -> `tabletop` system user and groups -> venv in /opt/tabletop/venv (sees
# apt's picamera2) -> pip install from locks/pi.txt (hashes required), then the wheel that
# pyproject.toml describes, built from an export of this clone -> systemd unit installed, loaded
# and enabled -> boot config merged into /boot/firmware -> service (re)started. Every step decides from the system's state, not from
# what this run did, so a second run changes nothing and a rerun after a failure finishes.
#
#   --check           say what an install would do, change nothing
#   --any-model       install on a Raspberry Pi other than a 4, 400, 5, 500 or CM4/CM5
#   --root DIR        write everything under DIR instead of /; what cannot happen there (apt,
#                     useradd, systemctl daemon-reload) is printed as "would run: ..."
#   --skip-pip        no pip install (and a venv without pip); for quick checks
#   --boot-dir DIR    boot partition (default /boot/firmware, under --root if given)
#   --no-boot-config  leave config.txt and cmdline.txt alone
#   --panel P --rotate N   console orientation for an official DSI panel (see merge_boot_config.py)
#   --uninstall       undo: unit, /opt/tabletop, boot settings; keeps the scorebook and the user
#   --purge           with --uninstall: also delete /var/lib/tabletop and the tabletop user
#
# Under --root the checks read the root's own files (etc/os-release, usr/bin/python3,
# etc/apt/sources.list*, proc/device-tree/model) and skip a fact the root does not hold.
# TABLETOP_MIN_FREE_MB overrides the free space asked for (default 1500).
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
# (pyproject.toml's `pi` extra, so it is in locks/pi.txt with its hash.)
LOCK_FILE="locks/pi.txt"
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
CHECK_ONLY=0
ANY_MODEL=0
CHANGED=0
REBOOT_NEEDED=0
REBOOT_PENDING=0
MIN_FREE_MB="${TABLETOP_MIN_FREE_MB:-1500}"

say() { printf '== %s\n' "$*"; }
note() { printf '   %s\n' "$*"; }
die() { printf 'install-pi: %s\n' "$*" >&2; exit 1; }
changed() { CHANGED=1; note "$*"; }
# Under --check every step says what it would do and stops there: `would STEP || return 0`.
would() {
    [[ $CHECK_ONLY -eq 1 ]] || return 1
    CHANGED=1
    note "would $*"
}

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
            --check) CHECK_ONLY=1 ;;
            --any-model) ANY_MODEL=1 ;;
            -h|--help) usage; exit 0 ;;
            *) die "unknown option '$1' (see --help)" ;;
        esac
        shift
    done
    if [[ -n "$ROOT" ]]; then
        [[ -d "$ROOT" ]] || die "--root $ROOT is not a directory"
        ROOT="$(cd "$ROOT" && pwd)"
        [[ "$ROOT" != "/" ]] || die "--root / is the real system: leave --root out"
    elif [[ $EUID -ne 0 && $CHECK_ONLY -eq 0 ]]; then
        die "run as root: sudo $0 $*"
    fi
    [[ $CHECK_ONLY -eq 0 || $UNINSTALL -eq 0 ]] || die "--check goes with an install, not --uninstall"
    [[ $PURGE -eq 0 || $UNINSTALL -eq 1 ]] || die "--purge goes with --uninstall"
    BOOT_DIR="${BOOT_DIR:-$ROOT/boot/firmware}"
    PREFIX="$ROOT/opt/tabletop"
    VENV="$PREFIX/venv"
    UNIT_PATH="$ROOT/etc/systemd/system/$UNIT_NAME"
    STATE_DIR="$ROOT/var/lib/tabletop"
    [[ -f "$REPO/pyproject.toml" && -f "$REPO/systemd/$UNIT_NAME" ]] \
        || die "$REPO does not look like a tabletop clone (no pyproject.toml or systemd unit)"
}

# ---------------------------------------------------------------- checks, before any change

NO_PI_ARCHIVE="python3-picamera2 is not available: the Raspberry Pi archive \
(archive.raspberrypi.com) is not in apt's sources, so this is plain Debian, not Raspberry Pi OS. \
Flash Raspberry Pi OS (64-bit) Bookworm with Raspberry Pi Imager, then run this again"
FLASH_64="flash \"Raspberry Pi OS (64-bit)\" Bookworm with Raspberry Pi Imager, then run this again"

os_release_value() {  # os_release_value KEY: the value in the root's os-release, "" if none
    local file="$ROOT/etc/os-release"
    [[ -f "$file" ]] || file="$ROOT/usr/lib/os-release"
    [[ -f "$file" ]] || return 0
    sed -n "s/^$1=//p" "$file" | tr -d '"' | head -n 1
}

check_os() {
    if [[ ! -f "$ROOT/etc/os-release" && ! -f "$ROOT/usr/lib/os-release" ]]; then
        [[ -n "$ROOT" ]] || die "no /etc/os-release, so this system cannot be told: $FLASH_64"
        note "system: not checked (no etc/os-release under --root)"
        return
    fi
    local name codename
    name="$(os_release_value PRETTY_NAME)"
    codename="$(os_release_value VERSION_CODENAME)"
    case " $(os_release_value ID) $(os_release_value ID_LIKE) " in
        *" debian "* | *" raspbian "*) ;;
        *) die "this is ${name:-an unknown system}, not Raspberry Pi OS or Debian: $FLASH_64" ;;
    esac
    [[ "$codename" == bookworm ]] \
        || die "this is ${name:-Debian} (${codename:-no codename}), the companion is made for Bookworm (Debian 12): $FLASH_64"
    note "system: $name"
}

elf_architecture() {  # elf_architecture FILE: the machine an ELF program is built for
    local header
    header="$(od -An -tx1 -N20 "$1" 2>/dev/null | tr -d ' \n')"
    [[ "${header:0:8}" == 7f454c46 ]] || { echo "unknown"; return; }
    case "${header:8:2}:${header:36:4}" in  # EI_CLASS : e_machine (little-endian)
        02:b700) echo aarch64 ;;
        01:2800) echo armhf ;;
        02:3e00) echo x86_64 ;;
        01:0300) echo i386 ;;
        *) echo "ELF class ${header:8:2} machine ${header:36:4}" ;;
    esac
}

check_architecture() {
    # The userland's own python3 says what runs the app (a 64-bit kernel may run a 32-bit OS).
    local python="$ROOT/usr/bin/python3" arch
    if [[ -e "$python" ]]; then
        arch="$(elf_architecture "$python")"
    elif [[ -n "$ROOT" ]]; then
        note "architecture: not checked (no usr/bin/python3 under --root)"
        return
    else
        arch="$(dpkg --print-architecture 2>/dev/null || uname -m)"
    fi
    case "$arch" in
        aarch64 | arm64) note "architecture: aarch64 (64-bit)" ;;
        armhf | armel | arm*)
            die "this is a 32-bit Raspberry Pi OS: PyPI has no OpenCV for it and pip would build it for hours. Use the 64-bit Raspberry Pi OS: $FLASH_64" ;;
        *) die "this system runs $arch programs, the companion installs on a Raspberry Pi's 64-bit Raspberry Pi OS (aarch64); on a desktop use python3 dev.py demo" ;;
    esac
}

apt_candidate() {  # apt_candidate PACKAGE: the version apt would install, "" if none
    apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p' | grep -vx '(none)' || true
}

sources_have_pi_archive() {
    grep -rqsE 'archive\.raspberrypi\.(com|org)' "$ROOT/etc/apt/sources.list" \
        "$ROOT/etc/apt/sources.list.d/"
}

check_pi_archive() {
    if [[ -n "$ROOT" ]]; then
        [[ -d "$ROOT/etc/apt" ]] || { note "Raspberry Pi archive: not checked (no etc/apt under --root)"; return; }
        sources_have_pi_archive || die "$NO_PI_ARCHIVE"
        note "Raspberry Pi archive: in apt's sources"
        return
    fi
    local version
    version="$(apt_candidate python3-picamera2)"
    if [[ -n "$version" ]]; then
        note "Raspberry Pi archive: python3-picamera2 $version available"
        return
    fi
    sources_have_pi_archive \
        && die "apt knows the Raspberry Pi archive but not python3-picamera2 yet: run sudo apt update, then this again"
    die "$NO_PI_ARCHIVE"
}

check_free_space() {
    local dir="$ROOT/opt" need="$MIN_FREE_MB" free_mb
    while [[ ! -d "$dir" ]]; do dir="$(dirname "$dir")"; done
    # An update of an installed venv needs far less than a first install.
    [[ ! -x "$VENV/bin/python" ]] || need=$((need / 5))
    free_mb=$(($(df -Pk "$dir" | awk 'NR == 2 { print $4 }') / 1024))
    ((free_mb >= need)) \
        || die "only $free_mb MB free where /opt is, the install needs about $need MB (apt packages, OpenCV, numpy, pygame-ce): free some (sudo apt clean) or use a larger SD card, then run this again"
    note "free space: $free_mb MB (needs about $need MB)"
}

check_pi_model() {
    local file="$ROOT/proc/device-tree/model" model
    [[ -r "$file" ]] || file="$ROOT/sys/firmware/devicetree/base/model"
    if [[ ! -r "$file" ]]; then
        note "Pi model: none (no device-tree model: not a Raspberry Pi, or emulated); camera, panel and pins cannot be checked here"
        return
    fi
    model="$(tr -d '\0' <"$file")"
    case "$model" in
        "Raspberry Pi 4"* | "Raspberry Pi 5"* | "Raspberry Pi Compute Module "[45]*)
            note "Pi model: $model" ;;
        "Raspberry Pi"*)
            [[ $ANY_MODEL -eq 1 ]] \
                || die "this is a $model, the companion needs a Raspberry Pi 4 or 5 (reading dice and drawing the display are too slow on older boards); --any-model installs anyway"
            note "Pi model: $model (not a Pi 4 or 5; installing anyway: --any-model)" ;;
        *) note "Pi model: $model (not a Raspberry Pi: no Pi camera or pins)" ;;
    esac
}

check_lock() {
    local problem
    problem="$("$SYSTEM_PYTHON" "$REPO/tools/locks.py" check "$REPO/$LOCK_FILE" 2>&1)" \
        || die "${problem#locks: }"
    note "lock: $LOCK_FILE matches pyproject.toml"
}

preflight() {
    say "checks (nothing changes before they all pass)"
    check_os
    check_architecture
    check_pi_archive
    check_free_space
    check_pi_model
    check_lock
}

# ---------------------------------------------------------------- install steps

systemd_running() { [[ -z "$ROOT" && -d /run/systemd/system ]]; }

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
    if would "apt-get install ${missing[*]}"; then return; fi
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
        getent group "$group" >/dev/null && continue
        if would "create group $group"; then continue; fi
        [[ -n "$ROOT" ]] || CHANGED=1
        host_run groupadd --system "$group"
    done
    if id "$APP_USER" >/dev/null 2>&1; then
        note "user $APP_USER exists"
    elif ! would "create the system user $APP_USER"; then
        [[ -n "$ROOT" ]] || CHANGED=1
        host_run useradd --system --user-group --home-dir /var/lib/tabletop --no-create-home \
            --shell /usr/sbin/nologin --comment "Tabletop companion" "$APP_USER"
    fi
    local missing_groups=()
    for group in "${APP_GROUPS[@]}"; do
        id -nG "$APP_USER" 2>/dev/null | tr ' ' '\n' | grep -qx "$group" || missing_groups+=("$group")
    done
    [[ ${#missing_groups[@]} -gt 0 ]] || return 0
    if would "add $APP_USER to ${missing_groups[*]}"; then return; fi
    [[ -n "$ROOT" ]] || CHANGED=1
    host_run usermod --append --groups "$(IFS=,; echo "${missing_groups[*]}")" "$APP_USER"
}

# The source that ships, exported once per run: the files git tracks in this clone (as they are
# in the working tree), or, in a copy without git, every file but venvs, caches and build
# leftovers. pyproject.toml alone says which of them go into the wheel.
export_source() {  # export_source DIR
    if git -C "$REPO" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        # --ignore-failed-read: a tracked file deleted in the working tree is not shipped.
        (cd "$REPO" && git ls-files -z --cached --others --exclude-standard \
            | tar --null --files-from=- --ignore-failed-read -cf -) | tar -xf - -C "$1"
    else
        tar -C "$REPO" --exclude=.venv --exclude=.git --exclude=build --exclude='*.egg-info' \
            --exclude=__pycache__ --exclude='*.pyc' -cf - . | tar -xf - -C "$1"
    fi
}

source_fingerprint() {  # source_fingerprint DIR: one hash of every file's path and content
    (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum) | sha256sum | cut -d' ' -f1
}

venv_is_sound() {
    [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" -c '' 2>/dev/null \
        && grep -qx 'include-system-site-packages = true' "$VENV/pyvenv.cfg" 2>/dev/null
}

create_venv() {
    say "venv $VENV"
    if venv_is_sound; then
        note "exists"
        return
    fi
    if would "create the venv (with --system-site-packages)"; then return; fi
    mkdir -p "$PREFIX"
    local pip_flag=()
    [[ $SKIP_PIP -eq 0 ]] || pip_flag=(--without-pip)
    # --clear: a venv left half-made by an interrupted run is made again.
    "$SYSTEM_PYTHON" -m venv --clear --system-site-packages "${pip_flag[@]}" "$VENV"
    changed "created (with --system-site-packages, so apt's picamera2 and lgpio are visible)"
}

install_app() {
    say "pip install $LOCK_FILE (hashes required), then the wheel pyproject.toml describes"
    local stamp="$PREFIX/installed-source.sha256" fingerprint work
    work="$(mktemp -d)"
    mkdir -p "$work/source" "$work/dist"
    export_source "$work/source"
    fingerprint="$(source_fingerprint "$work/source")"
    if [[ -f "$stamp" && "$(cat "$stamp")" == "$fingerprint" && ( $SKIP_PIP -eq 1 || -x "$VENV/bin/tabletop" ) ]]; then
        rm -rf "$work"
        note "this source is already installed"
        return
    fi
    if [[ $SKIP_PIP -eq 1 ]]; then
        rm -rf "$work"
        note "skipped (--skip-pip): $VENV/bin/pip install --require-hashes -r $LOCK_FILE"
        return
    fi
    if would "pip install --require-hashes -r $LOCK_FILE, then build and install the wheel"; then
        rm -rf "$work"
        return
    fi
    rm -f "$stamp"  # an interrupted install leaves no stamp, so the next run installs again
    [[ -x "$VENV/bin/pip" ]] || "$VENV/bin/python" -m ensurepip --upgrade >/dev/null
    local pip=("$VENV/bin/pip" --no-input --disable-pip-version-check)
    "${pip[@]}" install --require-hashes -r "$REPO/$LOCK_FILE" \
        || { rm -rf "$work"; die "pip could not install $LOCK_FILE (see above): check the network, then run this again"; }
    # The wheel is built from the export, so the build leaves nothing in the clone, and only
    # what pyproject.toml names is installed: what a release ships.
    "${pip[@]}" wheel --no-deps --wheel-dir "$work/dist" "$work/source" >/dev/null \
        || { rm -rf "$work"; die "building the wheel of $REPO failed (see above); run this again once fixed"; }
    "${pip[@]}" install --no-deps --force-reinstall "$work"/dist/*.whl \
        || { rm -rf "$work"; die "pip could not install the wheel (see above); run this again once fixed"; }
    rm -rf "$work"
    echo "$fingerprint" >"$stamp"
    changed "installed $VENV/bin/tabletop"
}

install_docs() {
    local doc="$REPO/docs/raspberry-pi.md" target="$PREFIX/docs/raspberry-pi.md"
    [[ -f "$doc" ]] || return 0
    cmp -s "$doc" "$target" && return 0
    if would "install the docs in $PREFIX/docs"; then return; fi
    install -D -m 0644 "$doc" "$target"
    changed "docs in $PREFIX/docs (the unit's Documentation=)"
}

# Whether systemd's loaded copy of the unit is missing or older than the file: asked of systemd,
# not taken from whether this run wrote the file (a failed run may have written it already).
unit_needs_reload() {
    [[ -z "$ROOT" ]] || return 0  # no systemd to ask for an offline root: say it would run
    systemd_running || return 1
    local state
    state="$(systemctl show "$UNIT_NAME" -p LoadState -p NeedDaemonReload 2>/dev/null)"
    grep -qx 'LoadState=loaded' <<<"$state" || return 0
    grep -qx 'NeedDaemonReload=yes' <<<"$state"
}

install_unit() {
    say "systemd unit $UNIT_PATH"
    if cmp -s "$REPO/systemd/$UNIT_NAME" "$UNIT_PATH"; then
        note "up to date"
    elif ! would "install the unit file"; then
        install -D -m 0644 "$REPO/systemd/$UNIT_NAME" "$UNIT_PATH"
        changed "installed"
    fi
    if [[ -z "$ROOT" ]] && ! systemd_running; then
        note "systemd is not running here (chroot or container): it loads the unit at boot"
    elif unit_needs_reload && ! would "systemctl daemon-reload"; then
        host_run systemctl daemon-reload
    fi
    local wants="$ROOT/etc/systemd/system/multi-user.target.wants/$UNIT_NAME"
    if [[ -L "$wants" ]]; then
        note "enabled"
    elif ! would "enable the unit at boot"; then
        # systemctl --root edits an offline tree without a running systemd.
        systemctl ${ROOT:+--root="$ROOT"} enable "$UNIT_NAME" 2>&1 | sed 's/^/   /'
        changed "enabled at boot (multi-user.target)"
    fi
}

boot_id() { cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown; }

# A merge waits for a reboot until the machine has rebooted: remembered with the boot's id, so a
# rerun (after a failure, or a second install before rebooting) still says so.
note_reboot_state() {
    local marker="$PREFIX/reboot-needed"
    if [[ $REBOOT_NEEDED -eq 1 && $CHECK_ONLY -eq 0 ]]; then
        mkdir -p "$PREFIX" && boot_id >"$marker"
    elif [[ -f "$marker" && "$(cat "$marker")" == "$(boot_id)" ]]; then
        REBOOT_PENDING=1
    elif [[ -f "$marker" && $CHECK_ONLY -eq 0 ]]; then
        rm -f "$marker"
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
    if [[ $CHECK_ONLY -eq 1 ]]; then
        output="$("$SYSTEM_PYTHON" "$REPO/firmware/merge_boot_config.py" --boot-dir "$BOOT_DIR" \
            --dry-run "${PANEL_ARGS[@]}" "$@")" || die "boot config cannot be merged (see above)"
        if [[ "$output" == "no changes" ]]; then
            note "up to date"
        else
            would "merge the boot settings (reboot then)" || true
        fi
        return
    fi
    output="$("$SYSTEM_PYTHON" "$REPO/firmware/merge_boot_config.py" --boot-dir "$BOOT_DIR" \
        "${PANEL_ARGS[@]}" "$@")" || die "boot config not merged (see above); run this again once fixed"
    printf '%s\n' "$output" | sed 's/^/   /'
    if grep -q "reboot needed" <<<"$output"; then
        CHANGED=1
        REBOOT_NEEDED=1
    fi
}

check_picamera2() {
    [[ -z "$ROOT" && $CHECK_ONLY -eq 0 && -x "$VENV/bin/python" ]] || return 0
    local problem
    problem="$("$VENV/bin/python" -c "import picamera2" 2>&1 | tail -n 1)" \
        || note "warning: picamera2 does not import in the venv ($problem); no Pi camera"
}

# Whether the running service is older than what is installed, or not running at all.
service_is_stale() {
    systemctl is-active --quiet "$UNIT_NAME" || return 0
    local since newest
    since="$(systemctl show "$UNIT_NAME" -p ActiveEnterTimestamp --value)"
    since="$(date -d "$since" +%s 2>/dev/null)" || return 0
    newest="$(stat -c %Y "$PREFIX/installed-source.sha256" "$UNIT_PATH" 2>/dev/null \
        | sort -n | tail -n 1)"
    ((${newest:-0} > since))
}

start_service() {
    if [[ $REBOOT_NEEDED -eq 1 || $REBOOT_PENDING -eq 1 ]]; then
        return
    elif [[ -n "$ROOT" ]]; then
        [[ $CHANGED -eq 0 || $CHECK_ONLY -eq 1 ]] || host_run systemctl restart "$UNIT_NAME"
    elif ! systemd_running; then
        note "systemd is not running here (chroot or container): the companion starts at boot"
    elif service_is_stale && ! would "restart the service"; then
        systemctl restart "$UNIT_NAME" || note "warning: the service did not start: journalctl -u tabletop -b"
        CHANGED=1
    fi
}

do_install() {
    preflight
    install_apt_packages
    create_user
    create_venv
    install_app
    install_docs
    install_unit
    merge_boot_config
    note_reboot_state
    check_picamera2
    start_service
    say "done"
    if [[ $CHECK_ONLY -eq 1 ]]; then
        if [[ $CHANGED -eq 1 ]]; then
            note "run without --check to do it"
        else
            note "nothing to do: already installed"
        fi
        return
    fi
    [[ $CHANGED -eq 1 ]] || note "nothing changed: already installed"
    if [[ $REBOOT_NEEDED -eq 1 ]]; then
        note "reboot needed: sudo reboot (the companion then starts by itself)"
    elif [[ $REBOOT_PENDING -eq 1 ]]; then
        note "reboot still needed for the boot settings merged before: sudo reboot"
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
    if [[ -e "$UNIT_PATH" ]] && { [[ -n "$ROOT" ]] || systemd_running; }; then
        host_run systemctl disable --now "$UNIT_NAME"
    fi
    remove_path "$ROOT/etc/systemd/system/multi-user.target.wants/$UNIT_NAME" "boot-time link"
    remove_path "$UNIT_PATH" "systemd unit"
    if [[ $CHANGED -eq 1 ]] && { [[ -n "$ROOT" ]] || systemd_running; }; then
        host_run systemctl daemon-reload
    fi
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

# Sourced (by tests) it only defines the functions.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
