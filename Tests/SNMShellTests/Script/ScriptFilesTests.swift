import Foundation
import SNMQuery
import SNMWire
import Testing

@testable import SNMShell

/// Which files `snm test` and `snm check` take, and where `run` finds the files it names.
@Suite struct ScriptFilesTests {
  @Test func directoriesGiveTheirScriptsInPathOrderWithoutHelpers() throws {
    let directory = try ScriptDirectory([
      "b.snm": "", "a.snm": "", "sub/c.snm": "", "sub/B.snm": "", "_lib/helper.snm": "",
      ".hidden/x.snm": "", "notes.txt": "", "sub/_skip.snm": "",
    ])
    defer { directory.remove() }
    var notes: [String] = []
    let files = try ScriptFiles.collect(
      [directory.path, directory.file("a.snm")], note: { notes.append($0) })
    #expect(
      files.map { $0.replacingOccurrences(of: directory.path + "/", with: "") } == [
        "a.snm", "b.snm", "sub/B.snm", "sub/c.snm",
      ])
    #expect(notes.isEmpty)
    #expect(throws: UsageError("no such file or directory 'nowhere'")) {
      try ScriptFiles.collect(["nowhere"], note: { _ in })
    }
  }

  /// A file's text as `load` takes it, its bytes checked in place, is what
  /// `String(data:encoding:)` made of it before: the same bytes (a first byte order mark left
  /// out, a second kept), and refused as not text exactly when that refused it.
  @Test func aFilesTextIsWhatStringOfDataMadeOfIt() {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let text = Array("from walk_request insert {\"message\": \"산책 🐶\"}\n".utf8)
    let inputs: [[UInt8]] = [
      [], bom, bom + bom, bom + text, bom + bom + text, text, text + bom, [0xEF, 0xBB] + text,
      text + [0xFF], bom + [0xC3], [0xED, 0xA0, 0x80] + text, Array(text.prefix(40)),
    ]
    for bytes in inputs {
      let data = Data(bytes)
      let made = String(data: data, encoding: .utf8)
      let source = try? ScriptLoader.source(of: bytes, path: "a.snm")
      #expect(source?.bytes == made.map { Array($0.utf8) }, "\(bytes)")
      #expect(source?.text == made, "\(bytes)")
    }
  }

  /// `load` reads a file's bytes into the array that keeps them: the same bytes Foundation reads,
  /// at every size around its first read's room, and nil where Foundation gives nil.
  @Test func aFilesBytesAreReadWhole() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "snm-contents-\(UInt32.random(in: .min ... .max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    for size in [0, 1, 2, 4_095, 4_096, 65_536, 65_537, 200_003] {
      let path = folder.appendingPathComponent("\(size).snm").path
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
      #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
      #expect(try ScriptLoader.contents(of: path) == bytes, "\(size) bytes")
      #expect(
        try Data(ScriptLoader.contents(of: path)) == FileManager.default.contents(atPath: path))
    }
    let missing = folder.appendingPathComponent("missing.snm").path
    #expect(throws: ScriptLoadError.notFound(missing)) { try ScriptLoader.contents(of: missing) }
    #expect(throws: ScriptLoadError.isDirectory(folder.path)) {
      try ScriptLoader.contents(of: folder.path)
    }
    #expect(FileManager.default.contents(atPath: folder.path) == nil)
    #expect(try ScriptLoader.contents(of: "/dev/null") == [])
  }

  /// A pipe (`/dev/stdin` fed by `generate |`, `<(...)`) is read to its end, past a pipe's buffer.
  @Test func aPipeIsReadToItsEnd() throws {
    let bytes = (0..<200_003).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    let readEnd = Self.pipeFeeding(bytes)
    #expect(try ScriptLoader.contents(of: "/dev/fd/\(readEnd)") == bytes)
    close(readEnd)
  }

  /// The read end of a pipe that a thread writes `bytes` into, then closes.
  static func pipeFeeding(_ bytes: [UInt8]) -> Int32 {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let writeEnd = ends[1]
    let writer = Thread {
      bytes.withUnsafeBytes { raw in
        var done = 0
        while done < raw.count {
          let wrote = write(writeEnd, raw.baseAddress.unsafelyUnwrapped + done, raw.count - done)
          if wrote <= 0 { break }
          done += wrote
        }
      }
      close(writeEnd)
    }
    writer.start()
    return ends[0]
  }

  /// The limit holds at its byte: a file or a pipe of `limit` bytes is read, one more is refused
  /// (a file by its size, unread; a pipe after `limit + 1` bytes, read no further).
  @Test func aScriptIsReadUpToTheLimitAndNoFurther() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "snm-limit-\(UInt32.random(in: .min ... .max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let limit = 100_000
    for size in [limit, limit + 1] {
      let path = folder.appendingPathComponent("\(size).snm").path
      #expect(FileManager.default.createFile(atPath: path, contents: Data(count: size)))
      if size == limit {
        #expect(try ScriptLoader.contents(of: path, limit: limit).count == limit)
      } else {
        #expect(throws: ScriptLoadError.tooLarge(path, bytes: size, limit: limit)) {
          try ScriptLoader.contents(of: path, limit: limit)
        }
      }
      let readEnd = Self.pipeFeeding([UInt8](repeating: 10, count: size))
      let piped = "/dev/fd/\(readEnd)"
      if size == limit {
        #expect(try ScriptLoader.contents(of: piped, limit: limit).count == limit)
      } else {
        #expect(throws: ScriptLoadError.tooLarge(piped, bytes: nil, limit: limit)) {
          try ScriptLoader.contents(of: piped, limit: limit)
        }
      }
      close(readEnd)
    }
  }

  /// Every refusal names its path; control characters in it as escapes, never raw.
  @Test func refusalsNameThePathWithControlCharactersEscaped() {
    let name = "a\u{1B}[2Jb.snm"
    let errors: [ScriptLoadError] = [
      .notFound(name), .danglingLink(name, target: name), .isDirectory(name),
      .notAFile(name, kind: "a socket"), .unreadable(name, errno: EIO), .notText(name),
      .tooLarge(name, bytes: 1, limit: 1), .interrupted(name, signal: SIGINT, waiting: true),
    ]
    for error in errors {
      #expect(error.description.contains("'a\\u{1B}[2Jb.snm'"), "\(error)")
      #expect(!error.description.contains("\u{1B}"), "\(error)")
    }
    #expect(
      ScriptLoadError.unreadable("x", errno: EIO).description
        == "cannot read 'x': input/output error: the disk or device failed (EIO)")
    #expect(ScriptLoadError.notText("-").description == "standard input is not UTF-8 text")
  }

  @Test func runPathsResolveAgainstTheIncludingFile() {
    #expect(ScriptLoader.resolve("lib/b.snm", from: "smoke/a.snm") == "smoke/lib/b.snm")
    #expect(ScriptLoader.resolve("../c.snm", from: "smoke/lib/b.snm") == "smoke/c.snm")
    #expect(ScriptLoader.resolve("./x.snm", from: nil) == "x.snm")
    #expect(ScriptLoader.resolve("/abs/x.snm", from: "smoke/a.snm") == "/abs/x.snm")
    #expect(ScriptLoader.resolve("../../x.snm", from: "a.snm") == "../../x.snm")
  }

  /// A script at `/`: its `run`'s file and its statements' local files are both under `/`. Its
  /// folder was "", so `> 'out.csv'` and `download ... to` wrote in the working directory while
  /// `run b.snm` ran /b.snm (and `snm check` matched neither to the other).
  @Test func aScriptAtTheRootHasTheRootAsItsFolder() {
    #expect(ScriptRunner.folder(ofScript: "/a.snm") == "/")
    #expect(ScriptRunner.folder(ofScript: "a.snm") == nil)
    #expect(ScriptRunner.folder(ofScript: "/tmp/a.snm") == "/tmp")
    #expect(ScriptLoader.resolve("b.snm", from: "/a.snm") == "/b.snm")
    let folder = ScriptRunner.folder(ofScript: "/a.snm")
    #expect(LocalPath.resolve("out.csv", directory: folder) == "/out.csv")
  }

  /// `~name/` is a name, in a `run` as in every statement's file: snm reads no other account's
  /// home (`\o ~name/x` wrote in that account's home, `> '~name/x'` under the script's folder).
  @Test func onlyTildeSlashIsTheHomeFolder() {
    #expect(ScriptLoader.resolve("~kim/b.snm", from: "tests/a.snm") == "tests/~kim/b.snm")
    #expect(LocalPath.resolve("~kim/out.csv", directory: nil) == "~kim/out.csv")
    #expect(LocalPath.resolve("~", directory: "tests") == HomeFolder.path())
    #expect(LocalPath.resolve("~/b.snm", directory: "tests") == HomeFolder.path() + "/b.snm")
  }
}
