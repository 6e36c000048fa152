import SNMLocalAuth

/// Seed rows of the demo project: three users with known passwords, their profiles, dogs, a mate
/// link and walk requests. Text includes Korean, an emoji, a NULL beside the string 'null', and
/// nested JSON. docs/demo-schema.md lists every row.
enum DemoSeedSQL {
  static let alice = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
  static let bob = "1d9f6a8b-7cae-4a2f-8b4c-3e5d7f9a1b2c"
  static let carol = "2eaf7b9c-8dbf-4b3a-9c5d-4f6e8a0b2c3d"

  /// The seed users' password, hashed as a sign-up hashes it (bcrypt, GoTrue's cost).
  static let password =
    "extensions.crypt('password123', extensions.gen_salt('bf', \(AuthSettings.bcryptCost)))"

  static let seed = """
    insert into auth.users (id, email, encrypted_password, email_confirmed_at,
                            raw_app_meta_data, raw_user_meta_data)
    values
      ('\(alice)', 'alice@example.com', \(password),
       now(), '{"provider":"email","providers":["email"]}', '{"name":"Alice"}'),
      ('\(bob)', 'bob@example.com', \(password),
       now(), '{"provider":"email","providers":["email"]}', '{"name":"김민수"}'),
      ('\(carol)', 'carol@example.com', \(password),
       now(), '{"provider":"email","providers":["email"]}', '{}');

    insert into public.user_info (id, name, age, bio, status, is_public, tags, address, data) values
      ('\(alice)', 'Alice', 31, '강아지와 산책하는 걸 좋아해요 🐶', 'active', false,
       '{walker,morning}',
       '{"city":"Seoul","postcode":"04524","geo":{"lat":37.5665,"lng":126.978}}',
       '{"blood":"A","pets":{"count":2,"names":["Bori","Choco"]}}'),
      ('\(bob)', '김민수', 28, null, 'null', false,
       '{evening}',
       '{"city":"Busan","postcode":"48058","geo":{"lat":35.1796,"lng":129.0756}}',
       '{"blood":"B","pets":{"count":1,"names":["Dubu"]}}'),
      ('\(carol)', 'Carol', null, 'null', null, true,
       '{}', null, '{"blood":null,"vaccinated":true}');

    insert into public.dog_profile
      (id, owner, name, breed, age, weight_kg, birth_date, lat, lng, is_public, traits) values
      (1, '\(alice)', 'Bori', 'Jindo', 3, 18.50, '2021-04-01', 37.5665, 126.9780, true,
       '{"friendly":true,"tricks":["sit","paw"],"vet":{"name":"Seoul Vet","visits":[2023,2024]}}'),
      (2, '\(alice)', 'Choco', 'Poodle', 5, 6.20, '2019-09-12', 37.5700, 126.9820, false,
       '{"friendly":false}'),
      (3, '\(bob)', '두부 🐕', 'Maltese', 2, 3.10, null, 35.1796, 129.0756, false, '{}'),
      (4, '\(carol)', 'Max', null, null, null, null, 37.5651, 126.9895, true,
       '{"note":"null"}');
    select setval(pg_get_serial_sequence('public.dog_profile', 'id'), 4);

    insert into public.mate (id, user_id, mate_id, status) values
      (1, '\(alice)', '\(bob)', 'accepted');
    select setval(pg_get_serial_sequence('public.mate', 'id'), 1);

    insert into public.walk_request (id, sender, receiver, dog_id, status, message, walk_at) values
      (1, '\(bob)', '\(alice)', 1, 'pending', '내일 아침에 같이 산책할까요? 🌅',
       '2026-01-10T08:00:00+09:00'),
      (2, '\(alice)', '\(carol)', 2, 'declined', null, null);
    select setval(pg_get_serial_sequence('public.walk_request', 'id'), 2);
    """
}
