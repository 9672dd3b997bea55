# The one release build every script runs; source it after `cd` to the repository, then use $bin.
# `Scripts/build` runs it alone. Every script passes the same flags, since SwiftPM rebuilds
# everything when they change.
#
# --static-swift-stdlib puts the Swift runtime and Foundation inside the binary: measured, it cuts
# process start from 13.5 ms to 7.5 ms (`assetc --version`), most of a small thumbnail's time, and
# the binary runs where no Swift toolchain is installed.
#
# -disable-concrete-type-metadata-mangled-name-accessors (for every module, ArgumentParser's
# included, so not in Package.swift): compiled code asks for a generic type's metadata by calling
# its accessor instead of handing the runtime a mangled name. Demangling one means finding each of
# its protocol conformances by a linear scan of the binary's 10,600 conformance records, and parsing
# the command line did dozens of those: by perf's count the scans of an `assetc info` of a tiny file
# went from 2.6 to 1.8 ms a run with the flag, the whole run from 10-14 ms to 9-11.
release_flags=(-c release --static-swift-stdlib
               -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
swift build "${release_flags[@]}" --product assetc >&2
bin="$(swift build "${release_flags[@]}" --show-bin-path)/assetc"
