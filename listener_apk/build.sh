#!/usr/bin/env bash
# Builds the listener APK with Debian's SDK packages (see install-sdk.sh); no Gradle.
#
#   listener_apk/build.sh            build into listener_apk/build/listener.apk
#   listener_apk/build.sh --ship     also copy it into the Python package, with
#                                    the digest of the sources it was built from
#   listener_apk/build.sh --test     build, then run the JUnit tests
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"

ANDROID_JAR=${ANDROID_JAR:-/usr/lib/android-sdk/platforms/android-23/android.jar}
JUNIT_CP=${JUNIT_CP:-/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar}
DX=${DX:-dalvik-exchange}
SHIP_DIR="$here/../pytest_mobileagent/listener"
read -r VERSION_CODE VERSION_NAME < VERSION

ship=0; test=0
for arg in "$@"; do
    case "$arg" in
        --ship) ship=1 ;;
        --test) test=1 ;;
        *) echo "build.sh: unknown option $arg (use --ship, --test)" >&2; exit 2 ;;
    esac
done
for tool in javac aapt zipalign apksigner "$DX"; do
    command -v "$tool" >/dev/null || { echo "build.sh: $tool not found; run listener_apk/install-sdk.sh as root" >&2; exit 1; }
done
[ -e "$ANDROID_JAR" ] || { echo "build.sh: $ANDROID_JAR not found; run listener_apk/install-sdk.sh as root" >&2; exit 1; }

# The digest of everything the APK is built from; the shipped copy records it
# so CI can tell a stale APK from a current one (same recipe in Python:
# pytest_mobileagent/listener/__init__.py, source_digest).
source_digest() {
    find AndroidManifest.xml VERSION build.sh debug.keystore res src -type f -print0 \
        | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1
}

rm -rf build
mkdir -p build/classes build/dex
# Java 8 bytecode: dx reads nothing newer, and API 23 has no lambda runtime.
javac -nowarn -source 8 -target 8 -bootclasspath "$ANDROID_JAR" -Xlint:-options \
    -d build/classes $(find src -name '*.java' | LC_ALL=C sort)
"$DX" --dex --min-sdk-version=21 --output=build/dex/classes.dex build/classes
aapt package -f -M AndroidManifest.xml -S res -I "$ANDROID_JAR" \
    --version-code "$VERSION_CODE" --version-name "$VERSION_NAME" \
    -F build/unaligned.apk build/dex
zipalign -f 4 build/unaligned.apk build/aligned.apk
apksigner sign --v4-signing-enabled false --ks debug.keystore --ks-pass pass:android --key-pass pass:android \
    --ks-key-alias listener --out build/listener.apk build/aligned.apk
apksigner verify build/listener.apk
digest=$(source_digest)
echo "$digest" > build/listener.apk.source-sha256
echo "built build/listener.apk ($VERSION_NAME, sources $digest)"

if [ "$test" = 1 ]; then
    mkdir -p build/test-classes
    javac -nowarn -d build/test-classes -cp "$JUNIT_CP" \
        $(find test -name '*.java' | LC_ALL=C sort) \
        src/io/github/mobileagent/listener/EventJson.java \
        src/io/github/mobileagent/listener/EventBuffer.java \
        src/io/github/mobileagent/listener/Handshake.java \
        src/io/github/mobileagent/listener/ListenerServer.java \
        src/io/github/mobileagent/listener/HierarchyXml.java \
        src/io/github/mobileagent/listener/HierarchyReply.java
    tests=$(cd test && find . -name '*Test.java' | sed 's|^\./||; s|\.java$||; s|/|.|g' | LC_ALL=C sort)
    java -cp "build/test-classes:$JUNIT_CP" org.junit.runner.JUnitCore $tests
fi

if [ "$ship" = 1 ]; then
    mkdir -p "$SHIP_DIR"
    cp build/listener.apk "$SHIP_DIR/listener.apk"
    cp build/listener.apk.source-sha256 "$SHIP_DIR/listener.apk.source-sha256"
    echo "shipped to pytest_mobileagent/listener/"
fi
