// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "snm",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "snm", targets: ["snm"]),
    .library(name: "SNMSupabase", targets: ["SNMSupabase"]),
    .library(name: "SNMQuery", targets: ["SNMQuery"]),
  ],
  targets: [
    // C libraries from Debian, through pkg-config. The only C in the package.
    .systemLibrary(
      name: "CLibEdit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
    .systemLibrary(
      name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    .systemLibrary(
      name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(
      name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    // glibc calls Swift cannot make (the variadic prctl), for the binary's process settings.
    .systemLibrary(name: "CProcess"),

    // Client side: SNMNetwork <- SNMSupabase <- SNMQuery <- SNMShell <- snm
    .target(name: "SNMNetwork", dependencies: ["CCurl"]),
    .target(name: "SNMSupabase", dependencies: ["SNMNetwork"]),
    .target(name: "SNMQuery", dependencies: ["SNMSupabase", "SNMNetwork"]),
    .target(
      name: "SNMShell", dependencies: ["SNMQuery", "SNMSupabase", "SNMNetwork", "CLibEdit"]),

    // Server side: the local project. Shares no code with the client side.
    .target(name: "SNMLocal", dependencies: ["CLibPQ", "CCrypto"]),

    .executableTarget(name: "snm", dependencies: ["SNMShell", "SNMLocal", "CProcess"]),

    // A loopback HTTP server (the test double for the request layer's unit tests) and a seeded
    // random generator for the fuzz-style tests.
    .target(name: "SNMTestSupport", path: "Tests/SNMTestSupport"),
    .testTarget(name: "SNMNetworkTests", dependencies: ["SNMNetwork", "SNMTestSupport"]),
    .testTarget(
      name: "SNMSupabaseTests", dependencies: ["SNMSupabase", "SNMNetwork", "SNMTestSupport"]),
    .testTarget(
      name: "SNMQueryTests",
      dependencies: ["SNMQuery", "SNMSupabase", "SNMNetwork", "SNMTestSupport"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "SNMShellTests",
      dependencies: ["SNMShell", "SNMQuery", "SNMSupabase", "SNMNetwork", "SNMTestSupport"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "SNMLocalTests", dependencies: ["SNMLocal"], exclude: ["REST/Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)
