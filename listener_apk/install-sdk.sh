#!/usr/bin/env bash
# Installs the Debian packages that build and test the listener app (run as root).
#
# Bookworm ships aapt, zipalign, apksigner, the framework resources and JUnit,
# but no android.jar and no dx; those come from bullseye, added as an apt source
# pinned low so nothing else is ever taken from it. The mirror is the one this
# machine's own Debian sources already use, read here rather than written down.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

have_all() {
    command -v javac >/dev/null && command -v aapt >/dev/null && command -v zipalign >/dev/null \
        && command -v apksigner >/dev/null && command -v dalvik-exchange >/dev/null \
        && [ -e /usr/lib/android-sdk/platforms/android-23/android.jar ] \
        && [ -e /usr/share/java/junit4.jar ]
}
if have_all; then
    echo "listener SDK packages: already installed"
    exit 0
fi

debian_mirror() {
    # deb822 sources (bookworm's default) first, then the one-line format.
    local uri
    uri=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null \
          | awk '{print $2}' | grep -E '/debian/?$' | head -n1 || true)
    if [ -z "$uri" ] && [ -e /etc/apt/sources.list ]; then
        uri=$(grep -hE '^deb ' /etc/apt/sources.list \
              | awk '{for (i = 2; i <= NF; i++) if ($i !~ /^\[/) {print $i; exit}}' \
              | grep -E '/debian/?$' | head -n1 || true)
    fi
    [ -n "$uri" ] || { echo "install-sdk.sh: no Debian mirror found in /etc/apt sources" >&2; exit 1; }
    echo "${uri%/}"
}

if [ ! -e /etc/apt/sources.list.d/mobileagent-bullseye.sources ]; then
    mirror=$(debian_mirror)
    cat > /etc/apt/sources.list.d/mobileagent-bullseye.sources <<SRC
Types: deb
URIs: $mirror
Suites: bullseye
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    cat > /etc/apt/preferences.d/mobileagent-bullseye <<PIN
Package: *
Pin: release n=bullseye
Pin-Priority: 100
PIN
fi

apt-get update -qq
apt-get install -y -qq --no-install-recommends \
    default-jdk-headless aapt android-framework-res zipalign apksigner junit4 \
    libandroid-23-java/bullseye dalvik-exchange/bullseye >/dev/null
have_all || { echo "install-sdk.sh: packages installed but a tool is still missing" >&2; exit 1; }
echo "listener SDK packages: installed"
