import Foundation
import Testing

@testable import SNMLocal
@testable import SNMLocalStorage

/// The object store on disk: a version's file appears whole or not at all, and the sweeps of a
/// starting gateway remove what a killed one left without touching what the new one writes.
@Suite struct StorageFilesTests {
  func scratch() throws -> String {
    let root = NSTemporaryDirectory() + "snm-storage-files-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    return root
  }

  func write(_ text: String, to file: StorageTemporaryFile) throws {
    try Array(text.utf8).withUnsafeBytes { try file.write($0) }
  }

  @Test func aCommittedVersionHoldsEveryByteAndTheTemporaryFileIsGone() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let files = try StorageFiles(root: root)
    let upload = try files.temporary()
    try write("woof", to: upload)
    let version = StorageFiles.newVersion()
    try files.commit(upload, version: version)
    #expect(FileManager.default.contents(atPath: files.path(version: version)) == Data("woof".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/tmp") == [])
  }

  @Test func theSweepKeepsWhatWasWrittenAfterTheGatewayStarted() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let files = try StorageFiles(root: root)
    let orphan = StorageFiles.newVersion()
    let kept = StorageFiles.newVersion()
    let named = StorageFiles.newVersion()
    for version in [orphan, named] {
      let file = try files.temporary()
      try files.commit(file, version: version)
    }
    let old = Date(timeIntervalSinceNow: -120)
    for version in [orphan, named] {
      try FileManager.default.setAttributes(
        [.modificationDate: old], ofItemAtPath: files.path(version: version))
    }
    let started = Date().timeIntervalSince1970 - 1
    // An upload of the new gateway: its file is in place, its row not yet written.
    try files.commit(try files.temporary(), version: kept)
    #expect(files.sweep(referenced: [named], writtenBefore: started) == 1)
    #expect(!FileManager.default.fileExists(atPath: files.path(version: orphan)))
    #expect(FileManager.default.fileExists(atPath: files.path(version: kept)))
    #expect(FileManager.default.fileExists(atPath: files.path(version: named)))
  }

  @Test func temporaryFilesAreSweptBeforeServing() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let files = try StorageFiles(root: root)
    let left = try files.temporary()
    try write("half an upload", to: left)
    #expect(files.sweepTemporary() == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/tmp") == [])
  }
}
