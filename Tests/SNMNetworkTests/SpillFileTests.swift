import Foundation
import Testing

@testable import SNMNetwork

/// What this process holds open in `folder`: each descriptor and its link (`/proc/self/fd`), as
/// `ls -l /proc/PID/fd` shows it.
private func descriptors(in folder: String) -> [(fd: Int32, link: String)] {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
  return names.compactMap { name in
    guard let fd = Int32(name),
      let link = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/fd/\(name)"),
      link.hasPrefix(folder + "/")
    else { return nil }
    return (fd, link)
  }
}

private func held(in folder: String) -> [String] { descriptors(in: folder).map(\.link) }

/// Whether `link` is a file made with no name in `folder`: `FOLDER/#INODE (deleted)`.
private func isNameless(_ link: String, in folder: String) -> Bool {
  guard link.hasPrefix(folder + "/#"), link.hasSuffix(" (deleted)") else { return false }
  return link.dropFirst(folder.count + 2).dropLast(" (deleted)".count).allSatisfy(\.isNumber)
}

/// A folder of its own, removed after `body`.
private func inFolder(_ body: (String) throws -> Void) throws {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("snm-spill-file-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  try body(folder)
}

/// The spill's file (``SpillFile``): never a name in its folder, `0600`, its bytes mapped back.
@Suite struct SpillFileTests {
  @Test func theFileHasNoNameFromItsFirstMoment() throws {
    try inFolder { folder in
      let file = try SpillFile(directory: folder)
      // O_TMPFILE: the kernel shows the folder and the inode, never a name that was unlinked.
      let links = held(in: folder)
      #expect(links.count == 1 && isNameless(links[0], in: folder), "\(links)")
      #expect(!file.named)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
      try file.write(Data("[1,2]".utf8))
      #expect(try file.mapped() == Data("[1,2]".utf8))
    }
  }

  @Test func theFileIsReadAndWrittenByItsOwnerOnly() throws {
    try inFolder { folder in
      for nameless in [true, false] {
        let file = try SpillFile(directory: folder, nameless: nameless)
        let fd = try #require(descriptors(in: folder).first?.fd)
        var status = stat()
        #expect(fstat(fd, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600, "nameless: \(nameless)")
        withExtendedLifetime(file) {}
      }
    }
  }

  /// Where the filesystem cannot make a file without a name: `mkstemp`'s name, unlinked before
  /// the file is handed back, so nothing is left in the folder either.
  @Test func theFallbackUnlinksItsNameAtOnce() throws {
    try inFolder { folder in
      let file = try SpillFile(directory: folder, nameless: false)
      #expect(file.named)
      let links = held(in: folder)
      #expect(links.count == 1 && links[0].hasPrefix(folder + "/snm-answer-"), "\(links)")
      #expect(links.first?.hasSuffix(" (deleted)") == true)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
    }
  }

  /// A folder that is missing, or is a file, fails with the folder and the reason (no fallback:
  /// `mkstemp` would fail there too, and say it less well).
  @Test func aFolderThatCannotTakeItFailsNamingIt() throws {
    try inFolder { folder in
      let missing = folder + "/no-such-folder"
      #expect(
        throws: TransportFileError(
          path: missing, call: "make a temporary file for the answer in",
          reason: "No such file or directory (TMPDIR chooses the folder)")
      ) { try SpillFile(directory: missing) }
      let plain = folder + "/a-file"
      #expect(FileManager.default.createFile(atPath: plain, contents: Data()))
      #expect(
        throws: TransportFileError(
          path: plain, call: "make a temporary file for the answer in",
          reason: "Not a directory (TMPDIR chooses the folder)")
      ) { try SpillFile(directory: plain) }
    }
  }

  /// The fallback in a folder where a name cannot be removed (append-only, `chattr +a`: files
  /// are made there, never unlinked): it failed silently before and the answer was written to a
  /// file left under its name; now nothing is written, the file is closed, and the error names it.
  @Test func aFallbackWhoseNameCannotGoTakesNoByte() throws {
    try inFolder { folder in
      let chattr = Process()
      chattr.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
      chattr.arguments = ["+a", folder]
      chattr.standardError = FileHandle.nullDevice
      guard (try? chattr.run()) != nil else { return }
      chattr.waitUntilExit()
      // Only root on a filesystem with the attribute can: elsewhere there is nothing to test.
      guard chattr.terminationStatus == 0 else { return }
      defer {
        let undo = Process()
        undo.executableURL = chattr.executableURL
        undo.arguments = ["-a", folder]
        try? undo.run()
        undo.waitUntilExit()
      }
      var thrown: TransportFileError?
      do {
        let file = try SpillFile(directory: folder, nameless: false)
        try file.write(Data("[1,2]".utf8))
      } catch {
        thrown = error as? TransportFileError
      }
      let left = try FileManager.default.contentsOfDirectory(atPath: folder)
      #expect(left.count == 1 && left.first?.hasPrefix("snm-answer-") == true, "\(left)")
      let name = folder + "/" + (left.first ?? "")
      #expect(
        thrown
          == TransportFileError(
            path: name, call: "remove the name of the empty temporary file",
            reason: "Operation not permitted (TMPDIR chooses the folder)"))
      let size = try FileManager.default.attributesOfItem(atPath: name)[.size] as? NSNumber
      #expect(size?.intValue == 0)
      #expect(held(in: folder) == [], "the file is closed")
    }
  }
}
