import Foundation
import Testing

@testable import SNMSupabase

@Suite struct FileSessionStoreTests {
  @Test func theSessionFileIs0600InA0700DirectoryAndHoldsNoTempFiles() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    await rig.manager().saveSession(for: rig.auth.issue())
    let file = try FileManager.default.attributesOfItem(atPath: rig.sessionPath)
    #expect((file[.posixPermissions] as? Int) == 0o600)
    let directory = try FileManager.default.attributesOfItem(atPath: rig.store.directory)
    #expect((directory[.posixPermissions] as? Int) == 0o700)
    let names = try FileManager.default.contentsOfDirectory(atPath: rig.store.directory).sorted()
    #expect(names.count == 2)  // the session and its lock file
    #expect(names.allSatisfy { $0.hasPrefix("session-127.0.0.1-54399-") })
  }

  @Test func projectsHaveTheirOwnFiles() throws {
    let store = FileSessionStore(directory: "/state")
    let one = store.path(project: "http://127.0.0.1:54321")
    let two = store.path(project: "http://127.0.0.1:54322")
    let hosted = store.path(project: "https://abcd.supabase.co")
    #expect(Set([one, two, hosted]).count == 3)
    #expect(hosted.hasPrefix("/state/session-abcd.supabase.co-"))
  }

  /// A session kept with marks of one project's keys is no session for another project later
  /// served at the same URL (no mark in common: `otherProject`); a login there replaces it.
  @Test func aSessionIsNotAnotherProjectsAtTheSameURL() throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    let first = rig.auth.issue()
    try rig.store.save(first, project: Rig.project, keyMarks: ["anon-1", "publishable-1"])
    #expect(throws: SessionStoreError.otherProject(path: rig.sessionPath)) {
      try rig.store.load(project: Rig.project, keyMarks: ["anon-2"])
    }
    #expect(
      try rig.store.load(project: Rig.project, keyMarks: ["publishable-1"])?.accessToken
        == first.accessToken)
    let second = rig.auth.issue()
    try rig.store.save(second, project: Rig.project, keyMarks: ["anon-2"])
    #expect(
      try rig.store.load(project: Rig.project, keyMarks: ["anon-2"])?.accessToken
        == second.accessToken)
    #expect(throws: SessionStoreError.otherProject(path: rig.sessionPath)) {
      try rig.store.load(project: Rig.project, keyMarks: ["anon-1"])
    }
  }

  /// Saving again for the project keeps the marks already kept: signed in with one key, the
  /// project is still signed in under another key a later run knows it by.
  @Test func savingMergesTheMarksOfTheSameProject() throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    try rig.store.save(rig.auth.issue(), project: Rig.project, keyMarks: ["anon-1"])
    let refreshed = rig.auth.issue()
    try rig.store.save(refreshed, project: Rig.project, keyMarks: ["anon-1", "publishable-1"])
    try rig.store.save(refreshed, project: Rig.project, keyMarks: ["publishable-1"])
    #expect(
      try rig.store.load(project: Rig.project, keyMarks: ["anon-1"])?.accessToken
        == refreshed.accessToken)
    let text = try String(contentsOfFile: rig.sessionPath, encoding: .utf8)
    #expect(text.contains(#""keys":["anon-1","publishable-1"]"#))
  }

  /// A file written before marks were kept (no `keys`) is still loaded, by any project at its URL.
  @Test func aFileWithoutMarksIsStillLoaded() throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    let session = rig.auth.issue()
    try rig.store.save(session, project: Rig.project)
    #expect(!(try String(contentsOfFile: rig.sessionPath, encoding: .utf8)).contains(#""keys""#))
    #expect(
      try rig.store.load(project: Rig.project, keyMarks: ["anon-1"])?.accessToken
        == session.accessToken)
  }

  @Test func aCorruptFileIsReportedThenAFreshLoginWorks() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    try rig.writeSessionFile("{\"version\": 1, \"project\": ")
    let manager = rig.manager()

    #expect(await manager.userID.failure == .signedOut)
    #expect(try await manager.requestToken() == nil)
    #expect(rig.warnings.all.count == 1)  // once, not per use
    let warning = try #require(rig.warnings.all.first)
    #expect(warning.contains(rig.sessionPath))
    #expect(warning.contains("unreadable") && warning.contains("login"))

    await manager.saveSession(for: try await rig.auth.signInAnonymously())
    #expect(await rig.manager().restoreSession()?.accessToken == "access-1")
  }

  /// Where a request may not go signed out in the stored session's place (a script), a file that
  /// cannot be used fails the request, naming it, until a sign-in or a sign-out replaces it: the
  /// file stays, so the next run fails too (removed by the first, the next went on as anon).
  @Test func aCorruptFileFailsARequestThatMustNotGoSignedOut() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    try rig.writeSessionFile("{\"version\": 1, \"project\": ")
    for _ in 0..<2 {
      let manager = rig.manager()
      await manager.configure(project: Rig.project, auth: rig.auth, requiresStored: true)
      await #expect {
        try await manager.requestToken()
      } throws: { error in
        guard case SupabaseSessionError.storedUnusable(.damaged(let path, let reason)) = error
        else { return false }
        return path == rig.sessionPath && reason == "not JSON"
          && "\(error)".contains("nothing is sent signed out")
      }
      #expect(FileManager.default.fileExists(atPath: rig.sessionPath))
    }
    let manager = rig.manager()
    await manager.configure(project: Rig.project, auth: rig.auth, requiresStored: true)
    try await manager.signOut(scope: .local)
    #expect(!FileManager.default.fileExists(atPath: rig.sessionPath))
    #expect(try await manager.requestToken() == nil)
    await manager.configure(project: Rig.project, auth: rig.auth, requiresStored: true)
    await manager.saveSession(for: rig.auth.issue())
    #expect(try await manager.requestToken() == "access-1")
  }

  @Test func aSessionFileOfAnotherShapeIsCorruptToo() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    try rig.writeSessionFile(
      "{\"version\":1,\"project\":\"http://127.0.0.1:54399\",\"session\":{\"user\":3}}")
    #expect(await rig.manager().restoreSession() == nil)
    #expect(
      rig.warnings.all.first?.contains("not a valid session: no 'access_token'; removed") == true)
    #expect(!FileManager.default.fileExists(atPath: rig.sessionPath))
  }

  /// A file that decodes but holds neither a session nor the mark that the server ended one is
  /// damaged, and says so (it was a made-up "no 'session'": such a file may hold the mark).
  @Test func aFileWithNeitherASessionNorTheMarkIsDamaged() throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    try rig.writeSessionFile("{\"version\":1,\"project\":\"\(Rig.project)\"}")
    let damaged = SessionStoreError.damaged(
      path: rig.sessionPath, reason: FileSessionStore.holdsNeither)
    #expect(throws: damaged) { try rig.store.load(project: Rig.project) }
    #expect(FileManager.default.fileExists(atPath: rig.sessionPath))
  }

  @Test func anUnreadableFileIsReportedNotFatal() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    // A directory where the file should be: open succeeds, read fails (even for root).
    try FileManager.default.createDirectory(
      atPath: rig.sessionPath, withIntermediateDirectories: true)
    let manager = rig.manager()
    #expect(await manager.restoreSession() == nil)
    #expect(rig.warnings.all.first?.contains("is a directory") == true)
    // Saving over it fails with a warning too, and nothing crashes.
    await manager.saveSession(for: rig.auth.issue())
    #expect(rig.warnings.all.count == 2)
    #expect(rig.warnings.all.last?.contains("could not save") == true)
    #expect(try await manager.accessToken.get() == "access-1")
  }

  @Test(.enabled(if: Immutable.isAvailable))
  func aFailedSaveWarnsAndLeavesTheOldFileIntact() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    let manager = rig.manager()
    await manager.saveSession(for: rig.auth.issue())
    let before = try Data(contentsOf: URL(fileURLWithPath: rig.sessionPath))

    try Immutable.set(rig.store.directory, true)
    defer { try? Immutable.set(rig.store.directory, false) }
    await manager.saveSession(for: rig.auth.issue())
    try Immutable.set(rig.store.directory, false)

    let after = try Data(contentsOf: URL(fileURLWithPath: rig.sessionPath))
    #expect(after == before)
    #expect(rig.warnings.all.count == 1)
    #expect(rig.warnings.all.first?.contains("previous file is unchanged") == true)
    let names = try FileManager.default.contentsOfDirectory(atPath: rig.store.directory)
    #expect(names.count == 2)  // no temporary file left behind
  }

  @Test func theLockExcludesASecondHolderUntilReleased() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let one = FileSessionStore(directory: directory.path)
    let two = FileSessionStore(directory: directory.path, lockTimeout: .milliseconds(50))
    let held = try await one.lock(project: Rig.project)
    await #expect(throws: SessionStoreError.self) {
      _ = try await two.lock(project: Rig.project)
    }
    held.unlock()
    let again = try await two.lock(project: Rig.project)
    again.unlock()
  }

  /// The prompt removed a damaged file without the lock: a `login` writing in between was
  /// deleted. It removes it under the lock, taken only when free (a holder is about to write it),
  /// and only what is still damaged under it.
  @Test func aDamagedFileIsRemovedUnderTheLockOnlyWhileStillDamaged() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    try rig.writeSessionFile("not json")
    let held = try await rig.store.lock(project: Rig.project)
    #expect(try rig.store.removeDamaged(project: Rig.project) == .lockHeld)
    #expect(FileManager.default.fileExists(atPath: rig.sessionPath))
    // The holder signs in: what it wrote stays.
    let signedIn = rig.auth.issue()
    try rig.store.save(signedIn, project: Rig.project)
    held.unlock()
    #expect(try rig.store.removeDamaged(project: Rig.project) == .replaced)
    #expect(try rig.store.load(project: Rig.project)?.accessToken == signedIn.accessToken)
    try rig.writeSessionFile("not json")
    #expect(try rig.store.removeDamaged(project: Rig.project) == .removed)
    #expect(!FileManager.default.fileExists(atPath: rig.sessionPath))
    #expect(try rig.store.removeDamaged(project: Rig.project) == .replaced)
  }

  /// A damaged file the restore left while another snm held the lock stayed until the next
  /// start; the next use of the session tries again: left while the lock is held still, removed
  /// once it is free (said), and a sign-in elsewhere that replaced it meanwhile left as it is,
  /// the process signed out as it said.
  @Test func aDamagedFileLeftWhileTheLockWasHeldIsRemovedAtTheNextUse() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    for replaced in [false, true] {
      try rig.writeSessionFile("not json")
      let held = try await rig.store.lock(project: Rig.project)
      let prompt = rig.manager()
      #expect(await prompt.currentSession == nil)
      #expect(await prompt.currentSession == nil)
      #expect(FileManager.default.fileExists(atPath: rig.sessionPath))
      let signedIn = rig.auth.issue()
      if replaced { try rig.store.save(signedIn, project: Rig.project) }
      held.unlock()
      #expect(await prompt.currentSession == nil)
      if replaced {
        #expect(try rig.store.load(project: Rig.project)?.accessToken == signedIn.accessToken)
        #expect(
          rig.warnings.all.last?.hasSuffix(
            "another snm holds its lock); sign in again with 'login'") == true)
      } else {
        #expect(!FileManager.default.fileExists(atPath: rig.sessionPath))
        #expect(rig.warnings.all.last?.contains("(not a valid session: not JSON; removed)") == true)
      }
      let problem: SessionStoreError? =
        replaced ? nil : .damaged(path: rig.sessionPath, reason: "not JSON; removed")
      #expect(await prompt.storedSessionProblem == problem)
    }
  }
}

/// `chattr +i`: the one way to make a directory unwritable for root.
enum Immutable {
  static let isAvailable =
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/chattr")

  static func set(_ path: String, _ on: Bool) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    process.arguments = [on ? "+i" : "-i", path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteNoPermission) }
  }
}
