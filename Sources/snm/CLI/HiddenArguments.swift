import Foundation

/// The values of `--key` and `--service-key` hidden from other accounts, once the command line is
/// read: a process's arguments are anyone's to read (`ps`, `/proc/PID/cmdline`) for as long as it
/// runs, where its environment is its own account's. `snm --service-key sb_secret_...` showed the
/// service key, which bypasses row-level security, to every account on the machine.
///
/// ```swift
/// let arguments = Array(CommandLine.arguments.dropFirst())  // read first: the values stay there
/// HiddenArguments.hide()  // ps: snm --url https://... --key xxxxxxxx --service-key=xxxxxxxx
/// ```
/// Each value's bytes are overwritten in place (as `mysql -p` does), its length kept: the kernel
/// shows the arguments from that memory. Before this runs, at the very start, they are still there:
/// `SUPABASE_SECRET_KEY` is the way that shows the key to no other account.
enum HiddenArguments {
  /// The options whose values are secrets.
  static let secretOptions = ["--key", "--service-key"]

  /// Overwrites the value of each ``secretOptions`` in the process's arguments (`--key VALUE` and
  /// `--key=VALUE`) with `x`s. Anything else stays as given.
  static func hide() {
    let count = Int(CommandLine.argc)
    let argv = CommandLine.unsafeArgv
    var index = 1
    while index < count, let argument = argv[index] {
      let text = String(cString: argument)
      if secretOptions.contains(text) {
        if index + 1 < count, let value = argv[index + 1] { blank(value) }
        index += 2
        continue
      }
      if let name = secretOptions.first(where: { text.hasPrefix($0 + "=") }) {
        blank(argument + name.utf8.count + 1)
      }
      index += 1
    }
  }

  private static func blank(_ text: UnsafeMutablePointer<CChar>) {
    memset(text, Int32(UInt8(ascii: "x")), strlen(text))
  }
}
