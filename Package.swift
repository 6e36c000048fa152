// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "snm",
  // Linux only: the code calls Glibc and FoundationNetworking; no Apple platform is built or tested.
  products: [
    .executable(name: "snm", targets: ["snm"]),
    .library(name: "SNMSupabase", targets: ["SNMSupabase"]),
    .library(name: "SNMQuery", targets: ["SNMQuery"]),
  ],
  targets: [
    // C libraries from Debian, through pkg-config. The only C in the package.
    .systemLibrary(
      name: "CLibEdit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
    // libpq and libcurl (with the Kerberos, LDAP and GnuTLS they bring: about 10M instructions of
    // relocations at every start), libcrypto and libssl (about 3M) are opened on first use by
    // their shims, not linked: headers only here (pkg-config's flags would link them).
    .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),
    // libcrypto (hashes, signatures, random bytes) and libssl (TLS for wss://; the https path goes
    // through libcurl).
    .systemLibrary(name: "CCrypto", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(
      name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
    .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    // The gateway's event loop (epoll): accepting, reading and timers on one thread.
    .systemLibrary(
      name: "CLibUV", pkgConfig: "libuv", providers: [.apt(["libuv1-dev"])]),
    // glibc calls Swift cannot make (the variadic prctl), for the binary's process settings.
    .systemLibrary(name: "CProcess"),
    // epoll and eventfd (glibc), for Realtime's WebSocket loop.
    .systemLibrary(name: "CEpoll"),

    // What both sides put on the wire: JSON, header fields, HTTP/1.1 framing, percent-encoding.
    // Depends on nothing; shares no domain types.
    .target(name: "SNMWire"),

    // A strict reader of the TOML that Supabase's config.toml uses, with file:line:column
    // errors. Depends only on SNMWire's one list of the characters a reader must not be shown raw
    // (a key in a message); the local project's modules read the project folder with it.
    .target(name: "SNMTOML", dependencies: ["SNMWire"]),

    // Client side: SNMWire <- SNMNetwork <- SNMSupabase <- SNMQuery <- SNMShell <- snm
    .target(name: "SNMNetwork", dependencies: ["SNMWire", "CCurl", "CCrypto"]),
    .target(name: "SNMSupabase", dependencies: ["SNMNetwork", "SNMWire"]),
    .target(name: "SNMQuery", dependencies: ["SNMSupabase", "SNMNetwork", "SNMWire"]),
    .target(
      name: "SNMShell",
      dependencies: ["SNMQuery", "SNMSupabase", "SNMNetwork", "SNMWire", "SNMCrypto", "CLibEdit"]),

    // `snm gen swift`: the Swift types of a project's schema, from its catalog or its OpenAPI
    // document. Reads JSON with SNMWire; knows nothing of how the catalog was fetched.
    .target(name: "SNMCodegen", dependencies: ["SNMWire"]),

    // One-time codes both sides compute (TOTP, RFC 6238; base32) and the QR code of an enrolment
    // (libqrencode): the local project checks codes, the client makes them from a secret.
    .target(name: "SNMCrypto", dependencies: ["SNMWire", "CCrypto", "CQREncode"]),

    // Server side: the local project. Shares the wire format with the client, no domain types.
    // Arrows point down only: a service imports SNMGateway and SNMWire, never another service;
    // SNMLocal wires the services into the router.
    // The kit every service stands on: HTTP serving, the libpq pool and the request's role, JWT,
    // the GatewayService protocol.
    .target(name: "SNMGateway", dependencies: ["SNMWire", "CLibPQ", "CCrypto", "CLibUV"]),
    // The services: PostgREST's behaviour, GoTrue's, Storage's, Realtime's, Edge Functions'.
    .target(name: "SNMLocalREST", dependencies: ["SNMGateway", "SNMWire"]),
    .target(name: "SNMLocalAuth", dependencies: ["SNMGateway", "SNMWire", "SNMCrypto", "CCurl"]),
    .target(name: "SNMLocalStorage", dependencies: ["SNMGateway", "SNMWire"]),
    .target(
      name: "SNMLocalRealtime", dependencies: ["SNMGateway", "SNMWire", "CLibPQ", "CEpoll"]),
    .target(name: "SNMLocalFunctions", dependencies: ["SNMGateway", "SNMWire"]),
    // The project: the router wiring the services, cluster control, project state, migrations.
    .target(
      name: "SNMLocal",
      dependencies: [
        "SNMGateway", "SNMLocalREST", "SNMLocalAuth", "SNMLocalStorage", "SNMLocalRealtime",
        "SNMLocalFunctions", "SNMWire", "SNMTOML", "CLibUV",
      ]),

    // main.swift (the one error funnel) and CLI/ (every command and option on one table).
    .executableTarget(
      name: "snm",
      dependencies: [
        "SNMShell", "SNMQuery", "SNMSupabase", "SNMNetwork", "SNMWire", "SNMLocal", "SNMGateway",
        "SNMLocalAuth", "SNMLocalRealtime", "SNMCodegen", "CProcess",
      ]),

    // A loopback HTTP server (the test double for the request layer's unit tests) and a seeded
    // random generator for the fuzz-style tests.
    .target(name: "SNMTestSupport", dependencies: ["SNMWire"], path: "Tests/SNMTestSupport"),
    .testTarget(name: "SNMWireTests", dependencies: ["SNMWire", "SNMTestSupport"]),
    .testTarget(
      name: "SNMNetworkTests", dependencies: ["SNMNetwork", "SNMWire", "SNMTestSupport"]),
    .testTarget(
      name: "SNMSupabaseTests",
      dependencies: ["SNMSupabase", "SNMNetwork", "SNMWire", "SNMTestSupport"]),
    .testTarget(
      name: "SNMQueryTests",
      dependencies: ["SNMQuery", "SNMSupabase", "SNMNetwork", "SNMWire", "SNMTestSupport"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "SNMShellTests",
      dependencies: [
        "SNMShell", "SNMQuery", "SNMSupabase", "SNMNetwork", "SNMWire", "SNMCrypto",
        "SNMTestSupport",
      ],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "snmTests", dependencies: ["snm", "SNMShell", "SNMLocal", "SNMTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(name: "SNMCryptoTests", dependencies: ["SNMCrypto"]),
    .testTarget(name: "SNMTOMLTests", dependencies: ["SNMTOML", "SNMTestSupport"]),
    .testTarget(name: "SNMCodegenTests", dependencies: ["SNMCodegen", "SNMWire"]),
    .testTarget(
      name: "SNMLocalTests",
      dependencies: [
        "SNMLocal", "SNMGateway", "SNMLocalREST", "SNMLocalAuth", "SNMLocalStorage",
        "SNMLocalRealtime", "SNMLocalFunctions", "SNMWire", "SNMTOML",
      ],
      exclude: ["REST/Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)

// The release binary's layout, for the resident memory of every run (issue 41's "Memory": a
// million rows printed in 32 MiB over https://, where the TLS stack alone takes 10). The kernel
// maps code 64 KiB around each page that runs, so what a run keeps resident is how scattered the
// functions it runs are, not how many:
// - each function in a section of its own (-function-sections; part of the static stdlib has
//   them too), and those that start snm and print rows placed first, side by side, in the order
//   scripts/link-order.txt lists them (lld's --symbol-ordering-file; scripts/link-order writes
//   it; a name a later build lacks is skipped): a 10-row read kept 12.5 MiB of the 21 MiB of
//   code resident, and keeps about 5.5 now;
// - relative relocations packed (-z pack-relative-relocs, DT_RELR, glibc 2.36): the dynamic
//   loader read all 2 MiB of .rela.dyn at every start, and reads 36 KiB now.
// gold, swiftc's default linker, has neither: lld comes with the toolchain. swiftc keeps an object
// whose code did not change, so a release build made before this took its sections only as each
// module changes: remove .build/release/*.build/*.o once to have them all.
for target in package.targets where target.type == .regular || target.type == .executable {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release))
    ]
}
for target in package.targets where target.name == "snm" {
  target.linkerSettings = [
    .unsafeFlags(
      [
        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker",
        "--symbol-ordering-file=\(Context.packageDirectory)/scripts/link-order.txt",
        "-Xlinker", "--no-warn-symbol-ordering",
      ], .when(configuration: .release))
  ]
}
