import Synchronization
import Testing

@testable import SNMShell

/// The prompt's load of the project's names, kept for its first need (issue 41: nothing before the
/// prompt): it starts once, whoever asks first, and only Tab that wants names asks.
@Suite struct SchemaCatalogFirstNeedTests {
  @Test func thePreparedLoadStartsOnceWhoeverAsksFirst() {
    let catalog = SchemaCatalog()
    let starts = Mutex<[String]>([])
    catalog.prepareLoading { starts.withLock { $0.append("prepared") } }
    #expect(starts.withLock { $0 }.isEmpty)
    catalog.loadIfNotStarted()
    catalog.loadIfNotStarted(else: { starts.withLock { $0.append("fallback") } })
    catalog.loadIfNotStarted()
    #expect(starts.withLock { $0 } == ["prepared"])
  }

  @Test func withNothingPreparedTheFallbackStartsOnce() {
    let catalog = SchemaCatalog()
    let starts = Mutex(0)
    catalog.loadIfNotStarted(else: { starts.withLock { $0 += 1 } })
    catalog.loadIfNotStarted(else: { starts.withLock { $0 += 1 } })
    #expect(starts.withLock { $0 } == 1)
  }

  @Test func tabStartsTheLoadWhereItWantsTheProjectsNamesOnly() {
    let catalog = SchemaCatalog()
    let starts = Mutex(0)
    catalog.prepareLoading { starts.withLock { $0 += 1 } }
    let completer = ShellCompleter(catalog: catalog, keyTyped: { false })
    _ = completer.complete("fr")
    _ = completer.complete("set for")
    #expect(starts.withLock { $0 } == 0)
    _ = completer.complete("from us")
    #expect(starts.withLock { $0 } == 1)
    _ = completer.complete("from user_info select ")
    #expect(starts.withLock { $0 } == 1)
  }
}
