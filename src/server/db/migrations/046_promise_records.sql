-- Each desk's record of its deadline promises (decision 041): the desk page reads, per desk, its last promised
-- requests newest promise first; the index keeps that read to the desk's promised rows.
create index purchases_desk_promises_idx on purchases (desk, promised_by desc) where promised_by is not null;
