import CProcess
import Foundation
import SNMLocal
import SNMNetwork
import SNMShell
import SNMWire

// No core file, and no reading of this process's memory by others of its user: it holds keys,
// tokens, passwords, and as `snm local` the JWT secret. A failure (a sandbox refusing prctl) still
// lets snm run.
_ = snm_forbid_core_dumps()

// The one funnel: argv -> invocation -> run -> exit code, for every command (`snm local` too).
// Every error becomes one message on standard error and an exit code.
let arguments = Array(CommandLine.arguments.dropFirst())
// A standard descriptor closed at start (`snm - <&-`) stays closed in effect, but holds /dev/null
// opened the wrong way round (reads and writes fail with EBADF), so that no file snm opens takes
// its number: the signal pipe became descriptor 0 and `snm -` read the signals as its script.
for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) < 0 {
  _ = open("/dev/null", fd == STDIN_FILENO ? O_WRONLY : O_RDONLY)
}
// Read once; the parser says where it read each secret option's value (`--key`), and what `ps`
// shows every account of the machine holds none of them from here on.
var secretValues: [HiddenArguments.Place] = []
let invocation: CommandLineReading
do throws(UsageError) {
  invocation = .invocation(try CommandLineParser.parse(arguments, secretValues: &secretValues))
} catch {
  invocation = .refused(error)
}
HiddenArguments.hide(secretValues)
InterruptSignals.shared.install()
// A reader that went away (`snm ... | head`) ends output quietly instead of killing snm mid-write.
signal(SIGPIPE, SIG_IGN)
// A file size limit (`ulimit -f`) makes a write fail with EFBIG, said as such, instead of a signal
// that kills snm with a half-written file (an answer spilled to $TMPDIR, a download).
signal(SIGXFSZ, SIG_IGN)
// A refused connection to this machine names snm's own stopped project (and how to start it)
// only where a data dir snm made records that port; anything else there is "nothing answers".
StoppedLocalProject.recognize { LocalProject.startCommand(port: $0) }
let command = arguments.first.flatMap(Command.subcommand(named:)) ?? .shell
var status: Int32
do {
  switch invocation {
  case .invocation(let parsed): status = try await Runner.run(parsed)
  case .refused(let error): throw error
  }
} catch {
  status = ErrorFunnel.report(error, command: command)
}
// Output lost on the way (`> /dev/full`, `>&-`) is a failure, said once at the end.
if let loss = OutputWriter.standardOutputLoss() {
  StandardStreams.writeError("snm: \(loss)\n")
  if status == ExitCode.success.rawValue { status = ExitCode.failure.rawValue }
}
exit(status)

/// What the command line read as: not `Result<Invocation, UsageError>`, whose metadata the runtime
/// builds at start by checking `UsageError: Error` against every conformance in the binary (254k
/// instructions of `snm --version`'s 5.98M).
enum CommandLineReading {
  case invocation(Invocation)
  case refused(UsageError)
}
