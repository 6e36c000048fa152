import SNMLocal
import SNMShell
import Testing

@testable import snm

/// Every command's errors come out of one funnel: the command's name, the message, a hint, the
/// exit code.
@Test func usageErrorsNameTheirCommandAndItsHelp() {
  let (shell, shellCode) = ErrorFunnel.message(
    for: UsageError("unknown option '--x'"), command: .shell)
  #expect(shell == "snm: unknown option '--x'\nTry 'snm --help'.\n")
  #expect(shellCode == .usage)
  let (local, localCode) = ErrorFunnel.message(
    for: UsageError("unknown option '--nope'"), command: .local)
  #expect(
    local
      == "snm local: unknown option '--nope'\n"
      + "usage: snm local start|stop|restart|status|reset|destroy|list|serve|inbox|logs|functions|idp [OPTIONS]\nTry 'snm local --help'.\n"
  )
  #expect(localCode == .usage)
}

@Test func aLocalProjectErrorKeepsItsExitCode() {
  let error = LocalProjectError(.unavailable, "postgres did not start")
  #expect(
    ErrorFunnel.message(for: error, command: .local) == (
      "snm local: postgres did not start\n", .unreachable
    ))
  #expect(
    ErrorFunnel.message(for: error, command: .shell) == (
      "snm: postgres did not start\n", .unreachable
    ))
}
