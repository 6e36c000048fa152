import Foundation

/// The `*.snm` files under a directory, found by a walk with bounds: `snm check DIR` must end,
/// and end saying what it left out.
///
/// ```swift
/// var walk = ScriptWalk(directory: "smoke")
/// let files = try walk.scripts()     // ["smoke/a.snm", "smoke/sub/b.snm"]
/// walk.notes                         // ["snm: note: skipped 'smoke/shared', a symbolic link ..."]
/// ```
/// - Symbolic links to files are followed; symbolic links to directories are not (as `find`,
///   `rg` and `go ./...` do not): each is a note (name it, or `--follow`, to take what is there).
///   `/proc/self` had one to `/` and a walk that followed it never ended. With `follow` they are
///   walked as folders, within the same bounds.
/// - A directory met again (its device and inode: a bind mount of a folder inside itself, a
///   followed link back up the tree) is walked once, with a note.
/// - Pseudo filesystems (proc, sysfs, cgroup, debugfs, ...) hold kernel state, never scripts:
///   named, refused; met under the directory (a mount point), a note.
/// - A `.snm` that is not a file (a FIFO would block the check until a writer came; a socket, a
///   device) is a note; named on its own, it is read.
/// - Past ``maximumDepth`` folders deep or ``maximumNames`` names, or a directory that cannot be
///   read: `UsageError`, nothing checked (a check of part of the tree must not pass as the whole).
struct ScriptWalk {
  /// How deep under the named directory folders are walked: scripts sit a few folders deep.
  static let maximumDepth = 64
  /// How many names a walk reads: a million is a home folder or a disk, not a folder of tests;
  /// reading them takes about a second.
  static let maximumNames = 1_000_000

  let base: String
  let named: String
  /// Whether symbolic links to directories are walked (`--follow`).
  let follow: Bool
  /// What the walk left out on purpose and why, a line each (`snm: note: skipped ...`).
  private(set) var notes: [String] = []
  /// The symbolic links to directories left out (without `follow`).
  private(set) var skippedLinks = 0
  private var count = 0
  private var walked: Set<Place> = []
  /// Each mounted device's filesystem type, read when first needed.
  private var mounts: [UInt64: String]?

  private struct Place: Hashable {
    var device: UInt64
    var inode: UInt64
  }

  init(directory: String, follow: Bool = false) {
    var base = directory
    while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
    self.base = base
    self.named = directory
    self.follow = follow
  }

  /// The scripts, as `directory/relative/path.snm`, sorted by path.
  mutating func scripts() throws(UsageError) -> [String] {
    var info = stat()
    guard stat(base, &info) == 0 else {
      throw UsageError(ScriptLoader.failure(at: named, errno: errno).description)
    }
    if let kind = pseudoFilesystem(on: UInt64(info.st_dev)) {
      throw UsageError(
        "\(ScriptLoadError.shown(named)) is on \(kind), a pseudo filesystem of the kernel's "
          + "state: it holds no scripts")
    }
    walked.insert(Place(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    var found: [String] = []
    var pending: [(relative: String, depth: Int, device: UInt64)] = [("", 0, UInt64(info.st_dev))]
    while let (relative, depth, device) = pending.popLast() {
      for (name, type) in try names(in: relative) {
        let child = relative.isEmpty ? name : relative + "/" + name
        let path = joined(child)
        let kind = try kind(of: path, type: type)
        switch kind {
        case .directory(let place), .linkToDirectory(let place):
          if case .linkToDirectory = kind, !follow {
            skippedLinks += 1
            notes.append(
              "snm: note: skipped \(ScriptLoadError.shown(path)), a symbolic link to a directory "
                + "(links to folders are not followed; name it, or --follow, to take its scripts)")
            continue
          }
          guard walk(place, at: path, from: device) else { continue }
          guard depth < Self.maximumDepth else {
            throw UsageError(
              "\(ScriptLoadError.shown(path)) is more than \(Self.maximumDepth) folders deep "
                + "under \(ScriptLoadError.shown(named)); name a folder nearer its scripts")
          }
          pending.append((child, depth + 1, place.device))
        case .file:
          if name.hasSuffix(".snm") { found.append(child) }
        case .other(let what):
          guard name.hasSuffix(".snm") else { continue }
          notes.append(
            "snm: note: skipped \(ScriptLoadError.shown(path)), \(what), not a file "
              + "(name it to read it)")
        }
      }
    }
    return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      .map { base == "." ? $0 : joined($0) }
  }

  private func joined(_ relative: String) -> String {
    base == "/" ? "/" + relative : base + "/" + relative
  }

  /// Whether to walk the directory at `place` (found under one on `device`): not one walked
  /// before, not a pseudo filesystem mounted there. Says why when not.
  private mutating func walk(_ place: Place, at path: String, from device: UInt64) -> Bool {
    if place.device != device, let kind = pseudoFilesystem(on: place.device) {
      notes.append(
        "snm: note: skipped \(ScriptLoadError.shown(path)), a mount of \(kind) (a pseudo "
          + "filesystem: no scripts)")
      return false
    }
    guard walked.insert(place).inserted else {
      notes.append(
        "snm: note: skipped \(ScriptLoadError.shown(path)), a directory already walked (a "
          + "symbolic link or bind mount back into the tree?)")
      return false
    }
    return true
  }

  /// The names in the directory `relative` (but `.`, `..` and names starting with `.` or `_`)
  /// with their `d_type`, counted against ``maximumNames``.
  private mutating func names(in relative: String) throws(UsageError) -> [(String, UInt8)] {
    let path = relative.isEmpty ? base : joined(relative)
    guard let directory = opendir(path) else {
      throw UsageError(
        "cannot read the directory \(ScriptLoadError.shown(path)): "
          + ScriptLoadError.words(errno: errno))
    }
    defer { closedir(directory) }
    var found: [(String, UInt8)] = []
    while true {
      errno = 0
      guard let entry = readdir(directory) else {
        guard errno == 0 else {
          throw UsageError(
            "cannot read the directory \(ScriptLoadError.shown(path)): "
              + ScriptLoadError.words(errno: errno))
        }
        return found
      }
      let type = entry.pointee.d_type
      let bytes = withUnsafePointer(to: &entry.pointee.d_name) { name in
        let start = UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self)
        return Array(UnsafeBufferPointer(start: start, count: strlen(start)))
      }
      guard let first = bytes.first, first != UInt8(ascii: "."), first != UInt8(ascii: "_")
      else { continue }
      count += 1
      if count > Self.maximumNames {
        throw UsageError(
          "more than \(ScriptLoadError.grouped(Self.maximumNames)) names under "
            + "\(ScriptLoadError.shown(named)); name the folders that hold scripts")
      }
      guard let name = String(validating: bytes, as: UTF8.self) else {
        if bytes.count >= 4 && bytes.suffix(4).elementsEqual(".snm".utf8) {
          notes.append(
            "snm: note: skipped a name under \(ScriptLoadError.shown(path)) that is not UTF-8 "
              + "(\(VisibleText.escaped(String(decoding: bytes, as: UTF8.self))))")
        }
        continue
      }
      found.append((name, type))
    }
  }

  private enum Kind {
    case directory(Place)
    case file
    case linkToDirectory(Place)
    case other(String)
  }

  /// What `path` is, from its `d_type` where that says (else `lstat(2)`); a symbolic link is
  /// what it leads to (one that leads nowhere is a file: loading it says so).
  private func kind(of path: String, type: UInt8) throws(UsageError) -> Kind {
    var info = stat()
    if Int(type) == Int(DT_REG) { return .file }
    guard lstat(path, &info) == 0 else {
      throw UsageError(ScriptLoader.failure(at: path, errno: errno).description)
    }
    var mode = info.st_mode & S_IFMT
    if mode == S_IFLNK {
      guard stat(path, &info) == 0 else { return .file }
      mode = info.st_mode & S_IFMT
      if mode == S_IFDIR {
        return .linkToDirectory(Place(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
      }
    }
    switch mode {
    case S_IFDIR: return .directory(Place(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    case S_IFREG: return .file
    case S_IFIFO: return .other("a FIFO")
    case S_IFSOCK: return .other("a socket")
    case S_IFCHR, S_IFBLK: return .other("a device")
    default: return .other("not a file")
    }
  }

  /// The name of the pseudo filesystem on `device` (`proc`, `sysfs`, ...), nil for any other.
  private mutating func pseudoFilesystem(on device: UInt64) -> String? {
    if mounts == nil { mounts = Self.filesystems() }
    guard let type = mounts?[device], Self.pseudoFilesystems.contains(type) else { return nil }
    return type
  }

  /// The filesystem type of each mounted device, from `/proc/self/mountinfo` (its third field
  /// `major:minor`, its type after ` - `). Empty where it cannot be read (no /proc, no pseudo
  /// filesystem to fear).
  static func filesystems(_ path: String = "/proc/self/mountinfo") -> [UInt64: String] {
    guard let bytes = try? ScriptLoader.contents(of: path, limit: 16 << 20) else { return [:] }
    var types: [UInt64: String] = [:]
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count > 3, let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count
      else { continue }
      let numbers = fields[2].split(separator: ":")
      guard numbers.count == 2, let major = UInt64(numbers[0]), let minor = UInt64(numbers[1])
      else { continue }
      // glibc's makedev: the low 8 bits of the minor and 12 of the major, then the rest of each.
      let device =
        (minor & 0xff) | ((major & 0xfff) << 8) | ((minor & ~0xff) << 12)
        | ((major & ~0xfff) << 32)
      types[device] = String(fields[dash + 1])
    }
    return types
  }

  /// The filesystems that show kernel state (`linux/magic.h` names them), never scripts.
  static let pseudoFilesystems: Set<String> = [
    "proc", "sysfs", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs", "bpf", "pstore",
    "configfs", "efivarfs", "devpts", "mqueue", "binfmt_misc", "fusectl",
  ]
}
