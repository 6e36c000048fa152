/// The demo project's buckets and their policies (a migration of the demo schema):
/// `avatars`, private, where each user reads and writes only the folder named after their id,
/// and `dog-photos`, public (anyone downloads through `/object/public/...` and lists it), where
/// each user writes only their own folder. Both take images only.
package enum DemoStorageSQL {
  package static let version = "00000000000006_demo_storage"

  package static let script = """
    insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
      ('avatars', 'avatars', false, 5242880, '{image/*}'),
      ('dog-photos', 'dog-photos', true, 10485760, '{image/*}')
    on conflict (id) do nothing;

    create policy "anyone sees the demo buckets" on storage.buckets
      for select to anon, authenticated using (id in ('avatars', 'dog-photos'));

    create policy "users read their own avatars" on storage.objects
      for select to authenticated
      using (bucket_id = 'avatars' and (storage.foldername(name))[1] = auth.uid()::text);
    create policy "users upload their own avatars" on storage.objects
      for insert to authenticated
      with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = auth.uid()::text);
    create policy "users replace their own avatars" on storage.objects
      for update to authenticated
      using (bucket_id = 'avatars' and (storage.foldername(name))[1] = auth.uid()::text)
      with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = auth.uid()::text);
    create policy "users delete their own avatars" on storage.objects
      for delete to authenticated
      using (bucket_id = 'avatars' and (storage.foldername(name))[1] = auth.uid()::text);

    create policy "anyone lists dog photos" on storage.objects
      for select to anon, authenticated using (bucket_id = 'dog-photos');
    create policy "users upload photos of their dogs" on storage.objects
      for insert to authenticated
      with check (bucket_id = 'dog-photos' and (storage.foldername(name))[1] = auth.uid()::text);
    create policy "users replace photos of their dogs" on storage.objects
      for update to authenticated
      using (bucket_id = 'dog-photos' and (storage.foldername(name))[1] = auth.uid()::text)
      with check (bucket_id = 'dog-photos' and (storage.foldername(name))[1] = auth.uid()::text);
    create policy "users delete photos of their dogs" on storage.objects
      for delete to authenticated
      using (bucket_id = 'dog-photos' and (storage.foldername(name))[1] = auth.uid()::text);
    """
}
