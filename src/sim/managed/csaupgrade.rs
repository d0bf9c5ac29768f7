//! kubectl's migration of client-side apply's field ownership to server-side apply (F8).
//! Mirrors client-go's `util/csaupgrade/upgrade.go` (UpgradeManagedFields).

use super::fieldpath::FieldSet;
use super::managers::{ManagedField, Operation, sort_entries};
use super::{CLIENT_SIDE_APPLY_MANAGER, KUBECTL_MANAGER};

/// kubectl's migration on the first `--server-side` apply (F8, client-go `csaupgrade`): the
/// fields of the `kubectl-client-side-apply` Update entry of the main resource move into the
/// `kubectl` Apply entry (which, when missing, is that entry renamed, keeping its apiVersion and
/// time), and the client-side entry goes. Returns whether anything moved.
pub fn migrate_client_side(entries: &mut Vec<ManagedField>) -> bool {
    let is_csa = |e: &ManagedField| e.is(CLIENT_SIDE_APPLY_MANAGER, Operation::Update, None);
    let Some(latest) = entries
        .iter()
        .filter(|e| is_csa(e))
        .max_by(|a, b| a.time.cmp(&b.time))
        .cloned()
    else {
        return false;
    };
    let moved = entries
        .iter()
        .filter(|e| is_csa(e))
        .fold(FieldSet::new(), |acc, e| acc.union(&e.fields));
    entries.retain(|e| !is_csa(e));
    match entries
        .iter_mut()
        .find(|e| e.is(KUBECTL_MANAGER, Operation::Apply, None))
    {
        Some(entry) => entry.fields = entry.fields.union(&moved),
        None => entries.push(ManagedField {
            manager: KUBECTL_MANAGER.to_string(),
            operation: Operation::Apply,
            api_version: latest.api_version,
            time: latest.time,
            subresource: None,
            fields: moved,
        }),
    }
    sort_entries(entries);
    true
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{T0, T1, T2, entry, owners, replicas_path, web};
    use super::super::update::{apply, record_update};
    use super::*;
    use serde_json::json;

    #[test]
    fn migrate_client_side_moves_fields_to_kubectl_apply() {
        let mut entries = Vec::new();
        let v1 = web(Some(3), "app:1.4");
        record_update(
            &mut entries,
            &json!({}),
            &v1,
            CLIENT_SIDE_APPLY_MANAGER,
            None,
            T0,
        );
        let scaled = web(Some(5), "app:1.4");
        record_update(
            &mut entries,
            &v1,
            &scaled,
            "kube-controller-manager",
            Some("scale"),
            T1,
        );
        let csa_fields = entry(&entries, CLIENT_SIDE_APPLY_MANAGER).map(|e| e.fields.clone());
        assert!(migrate_client_side(&mut entries));
        assert!(entry(&entries, CLIENT_SIDE_APPLY_MANAGER).is_none());
        let kubectl = entry(&entries, KUBECTL_MANAGER).cloned();
        assert_eq!(
            kubectl.as_ref().map(|e| e.operation),
            Some(Operation::Apply)
        );
        assert_eq!(kubectl.as_ref().map(|e| e.fields.clone()), csa_fields);
        assert_eq!(
            entries[0].manager, KUBECTL_MANAGER,
            "Apply entries sort first"
        );
        assert!(
            !migrate_client_side(&mut entries),
            "nothing left to migrate"
        );

        // The server-side apply that follows then owns what client-side apply had.
        let result = apply(
            &mut entries,
            &scaled,
            &web(None, "app:1.5"),
            KUBECTL_MANAGER,
            false,
            T2,
        );
        assert_eq!(
            result.as_ref().map(|l| (
                &l["spec"]["replicas"],
                &l["spec"]["template"]["spec"]["containers"][0]["image"]
            )),
            Ok((&json!(5), &json!("app:1.5")))
        );
        assert_eq!(
            owners(&entries, &replicas_path()),
            ["kube-controller-manager"]
        );
    }
}
