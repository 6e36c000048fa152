import Foundation

/// The values of the secret options (`--key`, `--service-key`: ``CommandLineOption/isSecret``)
/// hidden from other accounts, once the command line is read: a process's arguments are anyone's
/// to read (`ps`, `/proc/PID/cmdline`) for as long as it runs, where its environment is its own
/// account's. `snm --service-key sb_secret_...` showed the service key, which bypasses row-level
/// security, to every account on the machine.
///
/// ```swift
/// var secretValues: [HiddenArguments.Place] = []
/// let invocation = try CommandLineParser.parse(arguments, secretValues: &secretValues)
/// HiddenArguments.hide(secretValues)  // ps: snm --url https://... --key xxxxxxxx --service-key=xxxxxxxx
/// ```
/// The parser says where it read each secret value, so exactly those are hidden: `-c --key`
/// (a statement that reads `--key`) is no option, and the argument after it no key. Each value's
/// bytes are overwritten in place (as `mysql -p` does), its length kept: the kernel shows the
/// arguments from that memory. Before this runs, at the very start, they are still there:
/// `SUPABASE_SECRET_KEY` is the way that shows the key to no other account.
enum HiddenArguments {
  /// Where a secret value is in the arguments.
  struct Place: Sendable, Equatable {
    /// Its argument's index among those after the program's name (`CommandLine.arguments[1...]`).
    let argument: Int
    /// Where in that argument it begins, in bytes: past `--key=`, or 0.
    let offset: Int
  }

  /// Overwrites each value at `places` in the process's arguments with `x`s, to the end of its
  /// argument. Anything else stays as given.
  static func hide(_ places: [Place]) {
    let argv = CommandLine.unsafeArgv
    for place in places where place.argument + 1 < Int(CommandLine.argc) {
      guard let argument = argv[place.argument + 1], place.offset <= strlen(argument) else {
        continue
      }
      let value = argument + place.offset
      memset(value, Int32(UInt8(ascii: "x")), strlen(value))
    }
  }
}
