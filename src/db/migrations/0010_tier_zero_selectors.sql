-- Tier Zero's default selectors: BloodHound's default Tier Zero selectors (its Cypher seeds), written as our
-- selector rules (seed type "rule", see src/analysis/tier-zero-rules.ts), plus Incoming Forest Trust Builders and
-- the Domain Controllers OU. Analysis tags what the Tier Zero zone's selectors select (and the members of selected
-- groups, and the GPOs applying to them). They are ordinary selectors: an administrator can read, edit or delete
-- them. The list must stay equal to src/analysis/tier-zero-defaults.ts (a test checks it).
insert into asset_group_tag_selectors (asset_group_tag_id, name, description, seeds, auto_certify, is_default, created_by, updated_by)
select t.id, s.name, s.description, s.seeds::jsonb, false, false, 'system', 'system'
from asset_group_tags t
cross join (values
  ('Domain root object', 'Control of the domain root object compromises the domain (for example DCSync).', '[{"type":"rule","value":"kind:Domain"}]'),
  ('AdminSDHolder', 'Its ACL is stamped on every protected account and group by SDProp.', '[{"type":"rule","value":"kind:Container distinguishedname^=\"CN=ADMINSDHOLDER,CN=SYSTEM,\""}]'),
  ('Administrator', 'The built-in Administrator has admin access to the DCs.', '[{"type":"rule","value":"kind:User objectid$=-500"}]'),
  ('KRBTGT objects', 'Its keys sign every Kerberos ticket of the domain.', '[{"type":"rule","value":"kind:User objectid$=-502"}]'),
  ('Domain Admins', 'Full control over most of the directory.', '[{"type":"rule","value":"kind:Group objectid$=-512"}]'),
  ('Domain Controllers', 'Holds GetChangesAll on the domain; membership controls replication.', '[{"type":"rule","value":"kind:Group objectid$=-516"}]'),
  ('Cert Publishers', 'Full control of root and AIA CA objects (and sometimes the NTAuth store).', '[{"type":"rule","value":"kind:Group objectid$=-517"}]'),
  ('Schema Admins', 'Controls the schema, hence the default ACL of every future object.', '[{"type":"rule","value":"kind:Group objectid$=-518"}]'),
  ('Enterprise Admins', 'Full control over most of the forest.', '[{"type":"rule","value":"kind:Group objectid$=-519"}]'),
  ('Key Admins', 'Can write msDS-KeyCredentialLink on users and computers of the domain (shadow credentials).', '[{"type":"rule","value":"kind:Group objectid$=-526"}]'),
  ('Enterprise Key Admins', 'Can write msDS-KeyCredentialLink on users and computers of the forest (shadow credentials).', '[{"type":"rule","value":"kind:Group objectid$=-527"}]'),
  ('Enterprise Domain Controllers', 'Holds GetChangesAll; membership controls replication.', '[{"type":"rule","value":"kind:Group objectid$=-1-5-9"}]'),
  ('Administrators', 'Full control over most of the directory.', '[{"type":"rule","value":"kind:Group objectid$=S-1-5-32-544"}]'),
  ('Account Operators', 'GenericAll on users, groups and computers not protected by AdminSDHolder.', '[{"type":"rule","value":"kind:Group objectid$=S-1-5-32-548"}]'),
  ('Server Operators', 'Local privileges and logon on the domain controllers.', '[{"type":"rule","value":"kind:Group objectid$=S-1-5-32-549"}]'),
  ('Print Operators', 'Loads device drivers and logs on locally on the domain controllers.', '[{"type":"rule","value":"kind:Group objectid$=S-1-5-32-550"}]'),
  ('Backup Operators', 'Backup and restore privileges on the domain controllers (registry and NTDS).', '[{"type":"rule","value":"kind:Group objectid$=S-1-5-32-551"}]'),
  ('Incoming Forest Trust Builders', 'Can create incoming forest trusts to the forest root domain.', '[{"type":"rule","value":"kind:Group objectid$=S-1-5-32-557"}]'),
  ('Performance Log Users', 'DCOM privileges on the domain controllers.', '[{"type":"rule","value":"kind:Group objectid$=S-1-5-32-559"}]'),
  ('Distributed COM Users', 'DCOM privileges on the domain controllers.', '[{"type":"rule","value":"kind:Group objectid$=S-1-5-32-562"}]'),
  ('Cryptographic Operators', 'Cryptographic privileges on the domain controllers.', '[{"type":"rule","value":"kind:Group objectid$=S-1-5-32-569"}]'),
  ('DNS Admins', 'Controls DNS, which Kerberos and the DCs depend on.', '[{"type":"rule","value":"kind:Group name^=DNSADMINS@"}]'),
  ('Exchange Trusted Subsystem', 'Can write altSecurityIdentities of users inheriting ACEs from the domain.', '[{"type":"rule","value":"kind:Group name^=\"EXCHANGE TRUSTED SUBSYSTEM@\""}]'),
  ('Exchange Windows Permissions', 'WriteDacl on users and groups inheriting ACEs from the domain (shared permission model).', '[{"type":"rule","value":"kind:Group name^=\"EXCHANGE WINDOWS PERMISSIONS@\""}]'),
  ('Read-Only Domain Controllers', 'Control of an RODC computer object leads to an RODC golden ticket for a revealed Tier Zero principal.', '[{"type":"rule","value":"kind:Computer MemberOf>objectid$=-521"}]'),
  ('Domain Controllers OU', 'Holds the domain controllers; control of it (or its GPO links) controls them.', '[{"type":"rule","value":"kind:OU distinguishedname^=\"OU=DOMAIN CONTROLLERS,DC=\""}]'),
  ('Enterprise CA Computers', 'Admins of an enterprise CA host can forge certificates for anyone (golden certificate).', '[{"type":"rule","value":"kind:Computer HostsCAService>kind:EnterpriseCA"}]'),
  ('AZUREADSSOACC object', 'The Seamless SSO account can impersonate any synced identity in Entra ID.', '[{"type":"rule","value":"kind:Computer samaccountname=\"AZUREADSSOACC$\""}]'),
  ('NTAuth store', 'Decides which CAs may issue certificates for domain authentication.', '[{"type":"rule","value":"kind:NTAuthStore"}]'),
  ('Root CA object', 'Certificates used for domain authentication must chain to a trusted root CA.', '[{"type":"rule","value":"kind:RootCA"}]'),
  ('AIA CA (AD object)', 'Deleting it breaks trust in certificates of Tier Zero principals.', '[{"type":"rule","value":"kind:AIACA"}]'),
  ('Enterprise CA (AD object)', 'Control of it publishes templates and redirects enrollment.', '[{"type":"rule","value":"kind:EnterpriseCA"}]'),
  ('Certificate template', 'Control of a template enables ESC4 once it is published.', '[{"type":"rule","value":"kind:CertTemplate"}]'),
  ('Azure tenant object', 'Controls every identity, app and subscription of the tenant.', '[{"type":"rule","value":"kind:AZTenant"}]'),
  ('Global Administrator', 'The highest privilege role in Entra ID.', '[{"type":"rule","value":"kind:AZRole objectid^=62E90394-69F5-4237-9190-012177145E10@"}]'),
  ('Privileged Role Administrator', 'Can grant any admin role to any principal.', '[{"type":"rule","value":"kind:AZRole objectid^=E8611AB8-C189-46E8-94E1-60213AB1F814@"}]'),
  ('Privileged Authentication Administrator', 'Can reset any authentication method of any principal.', '[{"type":"rule","value":"kind:AZRole objectid^=7BE44C8A-ADAF-4E2A-84D6-AB2649E08A13@"}]'),
  ('Partner Tier2 Support', 'Can reset the password of any principal, Global Administrators included.', '[{"type":"rule","value":"kind:AZRole objectid^=E00E864A-17C5-4A4B-9C06-F5B95A8D5BD8@"}]'),
  ('Application Administrator', 'Can add credentials to apps, hence act as Tier Zero service principals.', '[{"type":"rule","value":"kind:AZRole objectid^=9B895D92-2CD3-44C7-9D02-A6AC2D5EA5C3@"}]'),
  ('Knowledge Administrator', 'Controls non-role-assignable groups.', '[{"type":"rule","value":"kind:AZRole objectid^=B5A8DCF3-09D5-43A9-A639-8E29EF291470@"}]'),
  ('Intune Administrator', 'Runs scripts on managed devices and manages Conditional Access.', '[{"type":"rule","value":"kind:AZRole objectid^=3A2C62DB-5318-420D-8D74-23AFFEE5D9D5@"}]'),
  ('Security Administrator', 'Live Response on devices and Conditional Access management.', '[{"type":"rule","value":"kind:AZRole objectid^=194AE4CB-B126-40B2-BD5B-6091B380977D@"}]')
) as s (name, description, seeds)
where t.type = 1 and t.position = 1
  and not exists (select 1 from asset_group_tag_selectors x where x.asset_group_tag_id = t.id and x.name = s.name);
