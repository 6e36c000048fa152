-- Estimates for the spread cases (a null among them).
alter table tasks add column estimate int;
update tasks set estimate = case id when 1 then 3 when 2 then null when 3 then 5 else id end;
