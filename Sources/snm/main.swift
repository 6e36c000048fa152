import Foundation
import SNMLocal
import SNMNetwork
import SNMShell

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "local" { exit(LocalCommand.run(Array(arguments.dropFirst()))) }
if arguments.first == "--version" {
  print("snm \(SNMNetwork.version)")
  exit(0)
}
FileHandle.standardError.write(Data("snm: not built yet\n".utf8))
exit(2)
