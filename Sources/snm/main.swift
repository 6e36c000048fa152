import Foundation
import SNMNetwork
import SNMShell
import SNMLocal

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--version" {
  print("snm \(SNMNetwork.version)")
  exit(0)
}
FileHandle.standardError.write("snm: not built yet\n".data(using: .utf8)!)
exit(2)
